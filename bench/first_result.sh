#!/usr/bin/env bash
# Time to the first result on a fresh clone, as a new user gets it: `bash scripts/main.sh` in a
# clone of this checkout's HEAD, each line of its output stamped, then the breakdown: setup
# (packages), build (the binary alone), datagen (with --verify) and run, in seconds. A second
# clock times the full test build (`scripts/build.sh`, everything) in a second fresh clone.
# No ccache or build folder is shared with the checkout: every object is compiled.
# Usage: bench/first_result.sh [WORK_DIR]   (env: FULL_BUILD=1 to time the full build too;
#   TRAINBENCH_MAIN_FILES, TRAINBENCH_MAIN_ACCELERATORS as scripts/main.sh takes them)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/trainbench-bench/first-result}
rm -rf "$work" && mkdir -p "$work"
git clone -q "$src" "$work/clone"
echo "first_result: $(git -C "$src" log --oneline -1), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
ms() { date +%s%3N; }
start=$(ms)
# Each line prefixed with the seconds since the start (to the tenth).
stamp() {
  while IFS= read -r line; do
    local t=$(($(ms) - start))
    printf '%d.%d %s\n' $((t / 1000)) $((t % 1000 / 100)) "$line"
  done
}
(cd "$work/clone" && CCACHE_DISABLE=1 bash scripts/main.sh "$work/data" 2>&1) | stamp | tee "$work/main.log" |
  grep -E "^[0-9.]+ (setup:|build:|trainbench: (datagen|run)|datagen:|trainbench: run complete)" || true
end=$(($(ms) - start))
# The phase boundaries: the first line each phase prints, in ms since the start.
at() { grep -m1 -E "^[0-9.]+ $1" "$work/main.log" | cut -d' ' -f1 | tr -d .; }
build_start=$(at "build: compiling") build_end=$(at "build: trainbench") run_start=$(at "trainbench: run ")
[ -n "$build_start" ] && [ -n "$build_end" ] && [ -n "$run_start" ] ||
  { echo "first_result: main.sh did not get through (see $work/main.log)" >&2; exit 1; }
printf '\n| setup | build (binary) | datagen + verify | run | first result |\n|---|---|---|---|---|\n'
# at's figures are tenths of a second, end is in ms.
printf '| %d s | %d s | %d s | %d s | %d s |\n' $((build_start / 10)) \
  $(((build_end - build_start) / 10)) $(((run_start - build_end) / 10)) \
  $(((end / 100 - run_start) / 10)) $((end / 1000))
if [ "${FULL_BUILD:-0}" = 1 ]; then
  git clone -q "$src" "$work/full"
  t0=$(date +%s)
  (cd "$work/full" && CCACHE_DISABLE=1 bash scripts/build.sh >"$work/full.log" 2>&1)
  echo "full build (scripts/build.sh: binary, plugin, tests): $(( $(date +%s) - t0 )) s"
fi
