# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): short runs for the report tests (report/).

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
