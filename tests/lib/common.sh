# Shared helpers for every shell test (cli/, interop/): sourced, not run. Each test gets a
# scratch folder $WORK, removed on exit (kept with KEEP_WORK=1) with any background job
# killed, and `check`/`fail` helpers that print what failed.
set -euo pipefail
TRAINBENCH=${TRAINBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/trainbench}
SRC=${TRAINBENCH_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
PY=${PY:-/usr/bin/python3}  # the GPU host: PY=python3, its own with PIL and numpy
WORK=$(mktemp -d /tmp/trainbench-test.XXXXXX)
# at_exit COMMAND: run by cleanup (last registered first) before the scratch folder goes,
# e.g. stopping a server the test started. Use it rather than a trap of one's own: a trap
# that runs something before cleanup hands cleanup that command's status, not the test's,
# and a failed test then passes.
EXIT_HOOKS=()
at_exit() { EXIT_HOOKS+=("$1"); }
cleanup() {
  local code=$?
  local i
  for ((i = ${#EXIT_HOOKS[@]} - 1; i >= 0; i--)); do eval "${EXIT_HOOKS[i]}" || true; done
  local pids
  pids=$(jobs -p)
  [ -n "$pids" ] && kill $pids 2>/dev/null
  wait 2>/dev/null
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"
  exit "$code"
}
trap cleanup EXIT
checks=0

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# check DESCRIPTION COMMAND...: runs the command, fails the test if it fails.
check() {
  local what=$1
  shift
  if ! "$@"; then fail "$what"; fi
  checks=$((checks + 1))
}

# expect_exit CODE OUTFILE COMMAND...: runs the command (stdout+stderr to OUTFILE) and
# fails unless it exits with CODE.
expect_exit() {
  local want=$1 out=$2
  shift 2
  local got=0
  "$@" >"$out" 2>&1 || got=$?
  if [ "$got" -ne "$want" ]; then
    cat "$out" >&2
    fail "expected exit $want, got $got: $*"
  fi
  checks=$((checks + 1))
}

# contains FILE TEXT: the file has the text.
contains() {
  grep -qF -- "$2" "$1" || {
    cat "$1" >&2
    fail "'$1' does not contain: $2"
  }
  checks=$((checks + 1))
}

# Files under a dataset folder whose names mark them as partial.
partial_files() { find "$1" -name '*.tbtmp' 2>/dev/null; }

done_ok() { echo "PASS: $(basename "$0") ($checks checks)"; }
