# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# The one helper library of the shell tests: every tests/<folder>/<name>_test.sh starts with
#   source "$(dirname "$0")/../lib/common.sh"
# and gets: set -euo pipefail; $TRAINBENCH (the binary), $SRC (the sources), $PY (python3);
# a scratch folder $WORK, removed on exit (kept with KEEP_WORK=1) with any background job
# killed; at_exit, fail, check, expect_exit, contains, json, wait_for_line, free_port,
# repo_files; the skip rule (below); and, from the files beside this one, the helpers of each
# kind of test:
#   skip.sh      skip_unless, skip_unless_gpu, skip_if_gpu: the skip rule (below)
#   run.sh       tiny datasets, results folders, the run's last line (cli/, mpi/, report/)
#   report.sh    quick_run: short runs with a fine time series (report/)
#   chromium.sh  chromium_run, chromium_dump_dom: headless Chromium (report/, mpi/)
#   interop.sh   interop_datagen, interop_read_dataset, interop_dlio_both_ways (interop/)
#   train.sh     train_has_libtorch and TRAIN_TINY, tiny `trainbench train` runs (cli/train_*)
#   mpi.sh       mpi_launch (mpirun on loopback, bounded), MPI_SMALL (mpi/, s3/)
#   s3.sh        s3_use_gateway, s3_curl, s3_new_bucket, ... against the suite's gateway (s3/)
#   stage.sh     stage_use_servers, stage_check_account, ... against nginx/squid (stage/)
#   slurm.sh     slurm_use_cluster, slurm_srun, slurm_wait_job, ... on the suite's cluster (slurm/)
#   container.sh container_use_image, container_run: the suite's podman image (container/)
#   cephfs.sh    cephfs_use_cluster, cephfs_mpirun, cephfs_on: the suite's CephFS on two hosts (cephfs/)
# They define functions and variables only: a test states what it needs (skip_unless,
# s3_use_gateway, stage_use_servers, cd "$WORK") itself.
#
# Naming: functions are lower_snake_case verbs; a helper tied to one kind of test (its
# servers or tools) carries that kind's prefix: s3_, stage_, mpi_, netns_, cephfs_, chromium_,
# interop_, train_, slurm_, container_, fault_proxy_. Constants of a kind are upper case with the same prefix.
#
# The skip rule (skip.sh; the suite's fixtures, s3/gateway.sh and stage/servers.sh, use it
# too): a test that cannot run here says why and
#   skip_unless CONDITION WHY   # CONDITION is evaluated (eval); false: exit 77 and "SKIP: WHY";
#                               # with CI=true: "FAIL: cannot run: WHY" and exit 1
# so under CI every suite either runs or fails, never skips. One class of exceptions, printed
# and skipped (77) under CI as well, because the CI box (Debian bookworm, 2 cores, no GPU) can
# never run them: tests that need a GPU, or need to be without one:
#   skip_unless_gpu WHY         # no usable nvidia-smi -L: exit 77, also under CI
#   skip_if_gpu WHY             # a GPU is there (the GPU host): exit 77, also under CI
set -euo pipefail
TRAINBENCH=${TRAINBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/trainbench}
SRC=${TRAINBENCH_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
PY=${PY:-/usr/bin/python3}  # the GPU host: PY=python3, its own with PIL and numpy
# The PyPI peers (pyarrow, TensorFlow, PyTorch, DLIO, s3dlio): the project's environment, made by
# scripts/setup_python.sh from requirements.txt. A test that needs one says so with
# skip_unless_pypi MODULE... (skip.sh).
PYPI_PY=${PYPI_PY:-$SRC/.venv/bin/python}
TESTS_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=$(mktemp -d /tmp/trainbench-test.XXXXXX)
# at_exit COMMAND: run by cleanup (last registered first, with the test's exit status in
# $code) before the scratch folder goes,
# e.g. stopping a server the test started. Use it rather than a trap of one's own: a trap
# that runs something before cleanup hands cleanup that command's status, not the test's,
# and a failed test then passes.
EXIT_HOOKS=()
at_exit() { EXIT_HOOKS+=("$1"); }
cleanup() {
  local code=$?
  trap - ERR
  local i
  for ((i = ${#EXIT_HOOKS[@]} - 1; i >= 0; i--)); do eval "${EXIT_HOOKS[i]}" || true; done
  local pids
  pids=$(jobs -p)
  [ -z "$pids" ] || kill $pids 2>/dev/null || true
  wait 2>/dev/null
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"
  exit "$code"
}
trap cleanup EXIT
# A command that stops the test through set -e says which, rather than leaving a bare status.
trap '_status=$?; echo "FAIL: $(basename "$0"):$LINENO: \"$BASH_COMMAND\" exited $_status" >&2' ERR
checks=0
TB=$TRAINBENCH  # the short name most tests use

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

# repo_files OUT: the files a clone has, one a line, relative to $SRC: git's view when the
# sources are a work tree (tracked, or new and not ignored: never build/ or results/), else
# what is on disk but build/. The docs' tests check what the docs name against it.
repo_files() {
  if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$SRC" ls-files --cached --others --exclude-standard >"$1"
  else
    (cd "$SRC" && find . -type f -not -path './build/*' | sed 's|^\./||') >"$1"
  fi
}

# Files under a dataset folder whose names mark them as partial.
partial_files() { find "$1" -name '*.tbtmp' 2>/dev/null; }

done_ok() { echo "PASS: $(basename "$0") ($checks checks)"; }

# python_has MODULE...: $PY imports every module.
python_has() {
  local IFS=,
  "$PY" -c "import $*" 2>/dev/null
}

# json FILE EXPR: a Python expression over the parsed JSON document `d` in FILE.
json() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# json_last_line FILE EXPR: the same over the JSON object on FILE's last line.
json_last_line() {
  "$PY" -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(eval(sys.argv[2]))' "$1" "$2"
}

# wait_for_line FILE REGEX WHAT: waits (at most 30 s) until FILE has a line matching REGEX.
wait_for_line() {
  for _ in $(seq 300); do
    grep -Eq "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "$3: $(cat "$1")"
}

# free_port: a TCP port free on 127.0.0.1 now.
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# now / elapsed START: seconds since the epoch, and since START (both fractional).
now() { date +%s.%N; }
elapsed() { "$PY" -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$1" "$(now)"; }

# fault_proxy_start UPSTREAM(HOST:PORT) STATSFILE [fault_proxy.py args...]: tests/s3/fault_proxy.py
# in front of UPSTREAM on a free port (at most 10 s to listen); sets FAULT_PROXY_PID and
# FAULT_PROXY_ENDPOINT (http://127.0.0.1:PORT). The stats file is JSON, rewritten after every
# request. One proxy at a time per shell; fault_proxy_stop ends it.
fault_proxy_start() {
  local upstream=$1 stats=$2
  shift 2
  local portfile=$stats.port
  rm -f "$portfile"
  "$PY" "$SRC/tests/s3/fault_proxy.py" --upstream "$upstream" --port-file "$portfile" \
    --stats "$stats" --max-seconds 300 "$@" &
  FAULT_PROXY_PID=$!
  for _ in $(seq 100); do
    [ -s "$portfile" ] && break
    kill -0 "$FAULT_PROXY_PID" 2>/dev/null || break
    sleep 0.1
  done
  [ -s "$portfile" ] || fail "fault_proxy.py did not start"
  FAULT_PROXY_ENDPOINT=http://127.0.0.1:$(cat "$portfile")
}

# fault_proxy_stop: SIGTERM to the proxy (it writes its stats file), at most 5 s wait.
fault_proxy_stop() {
  [ -n "${FAULT_PROXY_PID:-}" ] || return 0
  kill -TERM "$FAULT_PROXY_PID" 2>/dev/null || true
  local state
  for _ in $(seq 50); do
    state=$(sed 's/.*) //' "/proc/$FAULT_PROXY_PID/stat" 2>/dev/null | cut -d' ' -f1) || true
    [ -n "$state" ] && [ "$state" != Z ] || break
    sleep 0.1
  done
  kill -KILL "$FAULT_PROXY_PID" 2>/dev/null || true
  wait "$FAULT_PROXY_PID" 2>/dev/null || true
  FAULT_PROXY_PID=
}

# The helpers of each kind of test (header).
for _part in skip run report chromium interop train mpi s3 stage slurm container cephfs; do
  # shellcheck disable=SC1090
  source "$TESTS_LIB/$_part.sh"
done
unset _part
