#!/usr/bin/env bash
# A grid sweep killed with SIGKILL midway keeps what it measured (issue 35): its folder, written
# through the one results writer, holds summary.json from the start (valid JSON, complete false,
# a stop_reason saying the job did not end) with every point finished before the kill, and
# points.csv with their rows; `trainbench report` draws it as incomplete with no "undefined";
# the same command then runs only the rest.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# 40 steps of 50 ms at one accelerator: about 2 s a point, 6 points.
w=(resnet50_h100 dataset.num_files_train=40 dataset.num_samples_per_file=1 dataset.record_length_bytes=20000
   dataset.record_length_bytes_stdev=0 "dataset.data_folder=$WORK/d" reader.batch_size=1
   train.computation_time=0.05 train.epochs=1 "output.folder=$WORK/out")
grid=(reader.read_threads=1,2,4 --accelerators 1,2)
expect_exit 0 datagen.out "$TB" datagen "${w[@]}" --no-progress

"$TB" sweep "${w[@]}" "${grid[@]}" --no-progress >killed.out 2>&1 &
pid=$!
journal=
for _ in $(seq 600); do
  journal=$(ls "$WORK"/out/sweep-*/points.jsonl 2>/dev/null | head -n 1) || true
  [ -n "$journal" ] && [ "$(wc -l <"$journal")" -ge 2 ] && break
  kill -0 "$pid" 2>/dev/null || { cat killed.out; fail "the grid ended before it was killed"; }
  sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
folder=$(dirname "$journal")
before=$(wc -l <"$journal")
check "killed midway ($before of 6 points journaled)" test "$before" -ge 2 -a "$before" -lt 6
check "summary.json: valid, not ended, with the finished points" "$PY" - "$folder" "$before" <<'PY'
import csv, json, os, sys
folder, done = sys.argv[1], int(sys.argv[2])
s = json.load(open(os.path.join(folder, "summary.json")))
assert s["kind"] == "sweep" and s["mode"] == "grid", s
assert s["complete"] is False and "did not end" in s["stop_reason"], (s["complete"], s["stop_reason"])
assert s["points_total"] == 6 and s["points_done"] == len(s["points"]) >= done - 1, s["points_done"]
for p in s["points"]:
    assert p["run"]["complete"] and os.path.exists(os.path.join(p["run"]["results"], "summary.json")), p
rows = list(csv.DictReader(open(os.path.join(folder, "points.csv"))))
assert len(rows) == len(s["points"]), (len(rows), len(s["points"]))
PY
"$TB" report "$folder" >report.out 2>&1 || { cat report.out; fail "report failed on the killed grid"; }
chromium_dump_dom "$folder/report.html" page.dom
if grep -E "Uncaught|CONSOLE.*Error" "$WORK/chromium.log"; then fail "a script error on the page"; fi
check "the page draws it as incomplete, with no undefined" "$PY" - page.dom <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
text = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(script|style).*?</\1>", "", dom))
assert 'data-report-ready="true"' in dom, "the script did not finish"
assert "incomplete" in text and "did not end" in text, text[:800]
assert "undefined" not in text and "NaN" not in text, text[:1500]
PY

expect_exit 0 again.out "$TB" sweep "${w[@]}" "${grid[@]}" --no-progress
check "the rerun resumed the journaled points" \
  test "$(json_last_line again.out 'd["trainbench_sweep"]["points_resumed"]')" = "$before"
check "and ran the rest" "$PY" - "$folder/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is True and s["points_done"] == 6 and not s["stop_reason"], s
PY
done_ok
