#!/usr/bin/env bash
# sweep --find-max-accelerators: refuses before any probe what can give no verdict
# (--probe-steps below the steps an AU verdict needs, a --min whose epochs are too short), names
# a count whose AU was no verdict as such (not as the first failure), and keeps what it
# measured: each finished probe is journaled as it ends, so a sweep killed with SIGKILL keeps
# them, and the same command runs only the rest (no probe runs twice).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

w=(resnet50_h100 dataset.num_files_train=200 dataset.num_samples_per_file=1 dataset.record_length_bytes=20000
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/d" reader.batch_size=1
   train.epochs=1 output.folder="$WORK/out")
expect_exit 0 datagen.out "$TB" datagen "${w[@]}" --no-progress

# Refusals (exit 2) before any probe, naming the minimum.
expect_exit 2 steps.out "$TB" sweep "${w[@]}" train.computation_time=0.001 --find-max-accelerators --probe-steps 1
contains steps.out "--probe-steps 1: an AU verdict needs at least 9 steps"
contains steps.out "give --probe-steps 9 or more"
expect_exit 2 min.out "$TB" sweep "${w[@]}" train.computation_time=0.001 --find-max-accelerators --min 64
contains min.out "--min 64: 200 train samples give 3 steps per epoch"
contains min.out "trainbench datasize resnet50_h100 -a 64"
check "no sweep folder for a refused sweep" test -z "$(ls -d "$WORK"/out/sweep-* 2>/dev/null)"

# The dataset ends the growth: from 23 accelerators an epoch has fewer than 9 steps. 23 is
# named as no verdict, not as a failure. 20 ms of compute a step: on a box busy with builds,
# timers late by a few ms failed 1 ms steps (client-bound) before the dataset's limit.
expect_exit 0 nv.out "$TB" sweep "${w[@]}" train.computation_time=0.02 --find-max-accelerators --no-progress
contains nv.out "at 23 the AU is no verdict: the dataset is too small"
check "summary: no first failure, 23 without a verdict" "$PY" - \
  "$(json_last_line nv.out 'd["trainbench"]["results"]')/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["answer_accelerators"] == 22, s["answer_accelerators"]
assert s["first_failure_accelerators"] is None and s["no_verdict_accelerators"] == 23, s
PY

# Killed with SIGKILL once 3 probes (1 s each) are journaled; the same command then runs only
# the rest: every probe of the answer ran once, across both invocations.
slow=("${w[@]}" train.computation_time=0.05 output.folder="$WORK/killed")
"$TB" sweep "${slow[@]}" --find-max-accelerators --no-progress >k1.out 2>&1 &
pid=$!
journal=
for _ in $(seq 600); do
  journal=$(ls "$WORK"/killed/sweep-*/probes.jsonl 2>/dev/null | head -n 1) || true
  [ -n "$journal" ] && [ "$(wc -l <"$journal")" -ge 3 ] && break
  sleep 0.1
done
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
before=$(wc -l <"$journal")
check "probes journaled before the kill ($before)" test "$before" -ge 3
check "the killed sweep's summary keeps them, incomplete" "$PY" - "$(dirname "$journal")/summary.json" "$before" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is False and "did not end" in s["stop_reason"], s
assert len(s["probes"]) >= int(sys.argv[2]), len(s["probes"])
PY
# ... which `report` draws as incomplete, with no "undefined".
"$TB" report "$(dirname "$journal")" >killed_report.out 2>&1 || { cat killed_report.out; fail "report failed on the killed sweep"; }
chromium_dump_dom "$(dirname "$journal")/report.html" killed.dom
check "the killed sweep's page says incomplete, with no undefined" "$PY" - killed.dom <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
text = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(script|style).*?</\1>", "", dom))
assert 'data-report-ready="true"' in dom, "the script did not finish"
assert "incomplete" in text and "did not end" in text, text[:800]
assert "undefined" not in text and "NaN" not in text, text[:1500]
PY
expect_exit 0 k2.out "$TB" sweep "${slow[@]}" --find-max-accelerators --no-progress
contains k2.out "probe(s) finished by an earlier run of this sweep"
check "no probe ran twice" "$PY" - "$(json_last_line k2.out 'd["trainbench"]["results"]')" <<'PY'
import glob, json, os, sys
folder = sys.argv[1]
s = json.load(open(os.path.join(folder, "summary.json")))
assert s["complete"] and s["answer_accelerators"] == 22, (s["complete"], s["answer_accelerators"])
keys = [(p["accelerators"], p["full"], p["repeat"]) for p in s["probes"]]
assert len(keys) == len(set(keys)), keys
done = [d for d in glob.glob(os.path.join(folder, "probes", "*", "summary.json"))
        if json.load(open(d))["complete"]]
assert len(done) == len(keys), (len(done), keys)
assert sorted(p["results"] for p in s["probes"]) == sorted(os.path.dirname(d) for d in done)
PY
done_ok
