#!/usr/bin/env bash
# A `sweep --find-max-accelerators` stopped by Ctrl-C during a probe: exits 130 as the run
# did, says on stderr that it stopped before an answer, and keeps what it measured: its
# summary (complete false, no answer: null, the probe's verdict "stopped", not a failure),
# probes.csv and the probe's own partial results, which its report page draws.
source "$(dirname "$0")/../lib/common.sh"

w=(resnet50_h100 dataset.num_files_train=200 dataset.num_samples_per_file=1 dataset.record_length_bytes=20000
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/d" reader.batch_size=1
   train.computation_time=0.1 train.epochs=1 output.folder="$WORK/out")
expect_exit 0 "$WORK/datagen.out" "$TB" datagen "${w[@]}" --no-progress

# A probe of 200 steps (the epoch) of 100 ms: 20 s, far longer than the wait for its first line.
"$TB" sweep "${w[@]}" --find-max-accelerators --probe-steps 200 --no-progress \
  >"$WORK/stop.out" 2>"$WORK/stop.err" &
pid=$!
wait_for_line "$WORK/stop.err" "run resnet50_h100: 1 accelerator" "the first probe's start"
sleep 0.5
kill -INT "$pid"
code=0
wait "$pid" || code=$?
check "a sweep stopped by Ctrl-C exits 130 (got $code)" test "$code" -eq 130
contains "$WORK/stop.err" "warning: the sweep stopped before an answer: a run at 1 accelerator(s)"
folder=$(json_last_line "$WORK/stop.out" 'd["trainbench"]["results"]')
check "the final line says incomplete" \
  test "$(json_last_line "$WORK/stop.out" 'd["trainbench"]["complete"]')" = False
check "summary: incomplete, the probe stopped (no verdict of pass or FAIL)" "$PY" - "$folder/summary.json" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
assert s["kind"] == "sweep" and not s["complete"], s
# No answer: null, not 0 (which would read as "not even --min passes").
assert s["answer_accelerators"] is None and s["first_failure_accelerators"] is None, s
[p] = s["probes"]
assert p["accelerators"] == 1 and not p["complete"] and p["verdict"] == "stopped", p
run = json.load(open(os.path.join(p["results"], "summary.json")))
assert not run["complete"], run["complete"]
PY
check "probes.csv has the probe" test "$(($(wc -l <"$folder/probes.csv") - 1))" = 1
contains "$WORK/stop.out" "stopped"
check "the final line's answer is null" \
  test "$(json_last_line "$WORK/stop.out" 'd["trainbench_sweep"]["answer_accelerators"]')" = None
# Its page shows the missing answer as missing (the figures are summary.json's, null as "").
expect_exit 0 "$WORK/report.out" "$TB" report "$folder" -o "$WORK/stop.html"
chromium_dump_dom "$WORK/stop.html" "$WORK/stop.dom"
check "the stopped sweep's page" "$PY" "$SRC/tests/report/check_job_dom.py" "$WORK/stop.dom" sweep "$folder"
done_ok
