# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): headless Chromium (Debian's chromium) for
# the tests that render `trainbench report`'s pages (report/, mpi/).

# chromium_run ARGS... URL: headless Chromium with nothing of its own reaching the network.
chromium_run() {
  skip_unless "command -v chromium" "no chromium (Debian's chromium)"
  timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --disable-sync --disable-default-apps \
    --user-data-dir="$(mktemp -d "$WORK/chromium.XXXXXX")" "$@" 2>>"$WORK/chromium.log"
}

# chromium_dump_dom FILE OUT: the page's DOM after its scripts ran.
chromium_dump_dom() {
  chromium_run --virtual-time-budget=5000 --dump-dom "file://$1" >"$2"
  [ -s "$2" ] || fail "chromium --dump-dom wrote nothing for $1: $(tail -5 "$WORK/chromium.log")"
}
