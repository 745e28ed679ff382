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

# chromium_run ARGS... URL: headless Chromium with nothing of its own reaching the network.
chromium_run() {
  command -v chromium >/dev/null || skip "no chromium (Debian's chromium)"
  timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --disable-sync --disable-default-apps \
    --user-data-dir="$(mktemp -d "$WORK/chromium.XXXXXX")" "$@" 2>>"$WORK/chromium.log"
}

# dump_dom FILE OUT: the page's DOM after its scripts ran.
dump_dom() {
  chromium_run --virtual-time-budget=5000 --dump-dom "file://$1" >"$2"
  [ -s "$2" ] || fail "chromium --dump-dom wrote nothing for $1: $(tail -5 "$WORK/chromium.log")"
}
