#!/usr/bin/env bash
# A run killed with SIGKILL keeps what it measured: timeseries.csv gets its rows as they are
# sampled (flushed each interval), epochs.csv and summary.json (marked incomplete: the run did
# not end) are rewritten as each epoch ends, and `trainbench report` draws the folder as an
# incomplete run with its epochs, its time-series charts from those rows, and no "undefined".
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=4 train.computation_time=0.05 \
  train.epochs=100 --interval 0.2 --no-progress >run.out 2>run.err &
pid=$!
wait_for_line run.err "results in" "the run did not start"
# Killed once its first epoch (100 steps of 0.05 s) has ended and been kept.
for _ in $(seq 300); do
  grep -q '^train,' "$(results_dir)/epochs.csv" 2>/dev/null && break
  sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
dir=$(results_dir)
check "summary.json: incomplete, the run did not end, its epochs so far" "$PY" - "$dir" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["kind"] == "run" and s["complete"] is False and "did not end" in s["stop_reason"], s
epochs = [r for r in csv.DictReader(open(sys.argv[1] + "/epochs.csv")) if r["kind"] == "train"]
assert len(epochs) >= 1 and s["num_accelerators"] == 1, (len(epochs), s.get("num_accelerators"))
# 1 of 100 epochs is no verdict on the run (it said passed: true).
assert s["passed"] is None and s["au_meaningful"] is True, (s["passed"], s["au_meaningful"])
PY
rows=$(grep -c '^0,' "$dir/timeseries.csv" || true)
check "rows sampled before the kill ($rows)" [ "${rows:-0}" -ge 5 ]
"$TB" report "$dir" >report.out 2>&1 || { cat report.out; fail "report of a killed run failed"; }
chromium_run --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom \
  "file://$dir/report.html" >dom.html
[ -s dom.html ] || fail "chromium wrote no DOM: $(tail -5 "$WORK/chromium.log")"
if grep -E "Uncaught|CONSOLE.*Error" "$WORK/chromium.log"; then fail "a script error on the page"; fi
$PY - dom.html "$rows" <<'PY' || fail "killed run's report"
import json, re, sys
dom, rows = open(sys.argv[1]).read(), int(sys.argv[2])
text = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<script.*?</script>", "", dom))
assert 'data-report-ready="true"' in dom, "the script did not finish"
assert "INCOMPLETE" in text and "incomplete run" in text, text[:600]
assert "undefined" not in text and "NaN" not in text, text[:1500]
assert "NO VERDICT" in text and "PASS" not in text and "FAIL" not in text, text[:1500]
m = re.search(r'<canvas data-chart="samples"[^>]*data-points="([^"]*)"', dom)
assert m, "no samples/s chart"
points = json.loads(m.group(1).replace("&quot;", '"'))
assert len(points["datasets"][0]["data"]) == rows, (len(points["datasets"][0]["data"]), rows)
print("killed run report ok:", rows, "rows")
PY
checks=$((checks + 1))
done_ok
