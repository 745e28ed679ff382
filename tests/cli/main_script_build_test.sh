#!/usr/bin/env bash
# scripts/main.sh builds only the trainbench binary (not the tests or the LibTorch plugin)
# and is not silent meanwhile: ninja's [n/N] progress reaches the terminal (off a terminal,
# a line a minute and the first at once). Run against a copy of scripts/ with cmake and the
# binary stubbed, so no real build or benchmark runs.
source "$(dirname "$0")/../lib/common.sh"
repo=$WORK/repo
mkdir -p "$repo/scripts" "$repo/bin" "$repo/build"
cp "$SRC"/scripts/main.sh "$SRC"/scripts/build.sh "$repo/scripts/"
[ -e "$SRC/scripts/build_progress.sh" ] && cp "$SRC/scripts/build_progress.sh" "$repo/scripts/"
printf '#!/usr/bin/env bash\ntrue\n' >"$repo/scripts/setup.sh"
cat >"$repo/bin/cmake" <<STUB
#!/usr/bin/env bash
echo "\$*" >>"$WORK/cmake.args"
if [ "\${1:-}" = --build ]; then
  printf '[1/3] Building CXX object a.o\n[2/3] Building CXX object b.o\n[3/3] Linking CXX executable trainbench\n'
fi
STUB
printf '#!/usr/bin/env bash\necho "stub trainbench $*"\n' >"$repo/build/trainbench"
chmod +x "$repo/bin/cmake" "$repo/build/trainbench"
PATH=$repo/bin:$PATH bash "$repo/scripts/main.sh" "$WORK/data" >"$WORK/main.out" 2>&1 ||
  fail "main.sh failed: $(cat "$WORK/main.out")"
check "only the trainbench target is built" grep -q -- "--build build .*--target trainbench" "$WORK/cmake.args"
contains "$WORK/main.out" "build: [1/3] after"
check "one progress line within a minute" test "$(grep -c '^build: \[' "$WORK/main.out")" -eq 1
contains "$WORK/repo/build/build.log" "[3/3] Linking CXX executable trainbench"
contains "$WORK/main.out" "stub trainbench run resnet50_h100"
done_ok
