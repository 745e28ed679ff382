#!/usr/bin/env bash
# `trainbench report` writes one self-contained HTML page that headless Chromium renders: a
# screenshot that is not blank, and charts whose drawn points (read back from the DOM) are
# summary.json's and timeseries.csv's numbers; the page asks for nothing over the network
# (a CSP that forbids it, no http(s) src/href, and Chromium's net log shows no request).
# Two folders give a comparison page. Errors name the folder or the missing package.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
quick_run a
quick_run b 2

"$TB" report "$WORK/runs/a" >report.out 2>&1 || { cat report.out; fail "report failed"; }
page=$WORK/runs/a/report.html
contains report.out "report: $page"
[ -s "$page" ] || fail "no $page"
contains "$page" "Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\""
if grep -Eio "(src|href)[[:space:]]*=[[:space:]]*[\"']?https?:" "$page"; then
  fail "the page links to the network"
fi
checks=$((checks + 1))

# A screenshot, with Chromium's net log: no request that the page made (the browser's own,
# with no origin, such as its clock and update checks, are not the page's). A control page
# that does fetch an image shows the check would see one.
cat >"$WORK/control.html" <<'HTML'
<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/trainbench-control.png"></body></html>
HTML
chromium_run --log-net-log="$WORK/control.json" --virtual-time-budget=3000 --dump-dom \
  "file://$WORK/control.html" >/dev/null
chromium_run --window-size=1400,2400 --screenshot="$WORK/shot.png" --log-net-log="$WORK/net.json" \
  --virtual-time-budget=5000 "file://$page" >/dev/null
$PY - "$WORK/shot.png" "$WORK/net.json" "$WORK/control.json" <<'PY' || fail "screenshot blank or network used"
import json, sys
from PIL import Image, ImageStat
im = Image.open(sys.argv[1]).convert("RGB")
assert im.size == (1400, 2400), im.size
stat = ImageStat.Stat(im)
assert max(stat.var) > 500, stat.var  # charts and text, not one colour
assert len(im.getcolors(1 << 20) or []) > 50

def page_requests(path):
    text = open(path, encoding="utf-8", errors="replace").read().rstrip()
    try:
        log = json.loads(text)
    except ValueError:  # a log cut short at exit: close its event list
        log = json.loads(text.rstrip(",") + "]}")
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    return sorted({e["params"]["url"] for e in log["events"]
                   if names.get(e["type"]) == "URL_REQUEST_START_JOB"
                   and "url" in e.get("params", {})
                   and e["params"].get("initiator") != "not an origin"})

control = page_requests(sys.argv[3])
assert control == ["http://127.0.0.1:9/trainbench-control.png"], control
mine = page_requests(sys.argv[2])
assert not mine, mine
print("screenshot", im.size, "page requests:", mine, "control:", control)
PY
checks=$((checks + 1))
chromium_dump_dom "$page" dom.html
check "DOM of one run" $PY "$SRC/tests/report/check_dom.py" dom.html "$WORK/runs/a"

# Two runs: the comparison page (overlaid charts, a table of deltas).
"$TB" report "$WORK/runs/a" "$WORK/runs/b" -o "$WORK/compare.html" >cmp.out 2>&1 ||
  { cat cmp.out; fail "comparison report failed"; }
chromium_dump_dom "$WORK/compare.html" cmp.html
check "DOM of two runs" $PY "$SRC/tests/report/check_dom.py" cmp.html "$WORK/runs/a" "$WORK/runs/b"
contains cmp.html 'id="comparison"'

# Errors: not a results folder; Chart.js missing names the package; -o into a missing folder.
expect_exit 2 e1.txt "$TB" report "$WORK/data"
contains e1.txt "has no summary.json"
expect_exit 1 e2.txt "$TB" report "$WORK/runs/a" -o "$WORK/x.html" --chart-js /nonexistent/chart.min.js
contains e2.txt "libjs-chart.js"
[ ! -e "$WORK/x.html" ] || fail "a page was written without Chart.js"
expect_exit 2 e3.txt "$TB" report "$WORK/runs/a" -o /nonexistent/dir/x.html
contains e3.txt "-o"
done_ok
