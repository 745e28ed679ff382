#!/usr/bin/env bash
# No function in src/ is longer than 120 lines (docs/architecture.md): a long function is a
# job or an engine that has not named its steps. The key and flag tables are the exception
# (config/schema.cc's schema, cli/cmd_*.cc's CLI11 tables): one line a key or flag, read as a
# list. Function extents come from universal-ctags (its `end` field); a function over the
# limit is named with its file, line and length.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "ctags --version 2>/dev/null | grep -q 'Universal Ctags'" \
  "universal-ctags is not installed (scripts/setup.sh installs it)"

readonly kMaxLines=120

# long_functions DIR: "LINES FILE:LINE NAME" for each function of DIR's C++ over the limit,
# the tables aside.
long_functions() {
  ctags -R --languages=C++ --langmap=C++:+.cu --kinds-C++=f --fields=+ne --output-format=json \
    -f - "$1" 2>/dev/null | "$PY" -c '
import json, re, sys
limit, root = int(sys.argv[1]), sys.argv[2]
for line in sys.stdin:
    tag = json.loads(line)
    if "end" not in tag:
        continue
    path = tag["path"][len(root) + 1:] if tag["path"].startswith(root + "/") else tag["path"]
    if path == "src/config/schema.cc" or re.fullmatch(r"src/cli/cmd_\w+\.cc", path):
        continue
    length = tag["end"] - tag["line"] + 1
    if length > limit:
        print(length, "%s:%d" % (path, tag["line"]), tag["name"])
' "$kMaxLines" "$(dirname "$1")"
}

# The scan sees a long function, and leaves the tables alone.
mkdir -p "$WORK/bad/src/app" "$WORK/bad/src/config"
{
  echo "int Long() {"
  for i in $(seq 130); do echo "  int x$i = $i;"; done
  echo "  return 0;"
  echo "}"
  echo "int Short() { return 1; }"
} >"$WORK/bad/src/app/long.cc"
sed 's/Long/BuildSchema/' "$WORK/bad/src/app/long.cc" >"$WORK/bad/src/config/schema.cc"
long_functions "$WORK/bad/src" >"$WORK/bad.txt"
check "a function of 133 lines is named" grep -q '^133 src/app/long.cc:1 Long$' "$WORK/bad.txt"
check "a short function is not" bash -c "! grep -q Short '$WORK/bad.txt'"
check "the schema's table is left alone" bash -c "! grep -q schema.cc '$WORK/bad.txt'"

long_functions "$SRC/src" >"$WORK/long.txt"
if [ -s "$WORK/long.txt" ]; then
  sort -rn "$WORK/long.txt" >&2
  fail "$(wc -l <"$WORK/long.txt") function(s) over $kMaxLines lines: split each into named steps"
fi
checks=$((checks + 1))
echo "OK: $checks checks, no function in src/ over $kMaxLines lines but the key and flag tables"
