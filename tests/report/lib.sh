# Shared by the report tests (tests/report/*_test.sh): the run helpers of the CLI tests, a
# tiny dataset that sits in the page cache, short runs with a fine time series, and headless
# Chromium (Debian's chromium) to render what `trainbench report` writes. Sourced.
source "$(dirname "${BASH_SOURCE[0]}")/../cli/lib/run_common.bash"

skip() {
  [ "${CI:-}" = true ] && fail "cannot run: $*"
  echo "SKIP: $*"
  exit 77
}

# quick_run NAME [ACCELERATORS] [ARGS...]: a ~1.5 s run (2 epochs of 25 steps of 20 ms on 4
# accelerators) with a row every 0.2 s; its results folder is moved to $WORK/runs/NAME.
quick_run() {
  local name=$1 accelerators=${2:-4}
  shift 2 || shift
  mkdir -p "$WORK/runs"
  "$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=4 train.computation_time=0.02 \
    train.epochs=2 --accelerators "$accelerators" --interval 0.2 --no-progress "$@" \
    >"$WORK/runs/$name.out" 2>"$WORK/runs/$name.err" || {
    cat "$WORK/runs/$name.err"
    fail "run $name failed"
  }
  mv "$(results_dir)" "$WORK/runs/$name"
}

source "$(dirname "${BASH_SOURCE[0]}")/../lib/chromium.sh"
