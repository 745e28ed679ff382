# shellcheck shell=bash
# Headless Chromium (Debian's chromium) for the tests that render `trainbench report`'s
# pages: sourced by tests/report/lib.sh and the MPI tests. Needs the includer's WORK, fail and
# skip (exit 77 unless CI=true).

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
