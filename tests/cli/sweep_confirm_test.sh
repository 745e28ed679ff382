#!/usr/bin/env bash
# sweep --find-max-accelerators holds its answer: the full-length run at N* (and at N*+1,
# where a count failed) is repeated until each side has --confirm runs (3 by default), the
# answer carries their AU spread (summary.json, the final line, the text), the repeats are
# journaled like the search's probes (a rerun runs none again), and repeats that disagree are
# named, with what limited the failing one, instead of one of them being picked. --confirm
# out of 1..10 exits 2 before any run.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# 400 samples at batch 4: from 12 accelerators an epoch has fewer steps than an AU verdict
# needs, so the answer is 11 wherever the host keeps time.
w=(resnet50_h100 dataset.num_files_train=8 dataset.num_samples_per_file=50 dataset.record_length_bytes=114660
   dataset.record_length_bytes_stdev=0 "dataset.data_folder=$WORK/d" reader.batch_size=4
   train.computation_time=0.01 train.epochs=2 "output.folder=$WORK/out")
expect_exit 0 datagen.out "$TB" datagen "${w[@]}" --no-progress

expect_exit 2 big.out "$TB" sweep "${w[@]}" --find-max-accelerators --confirm 11 --no-progress
contains big.out "trainbench: error: --confirm 11: give 1 to 10 full-length runs"
expect_exit 2 zero.out "$TB" sweep "${w[@]}" --find-max-accelerators --confirm 0 --no-progress
check "no sweep folder for a refused --confirm" test -z "$(ls -d "$WORK"/out/sweep-* 2>/dev/null)"

expect_exit 0 held.out "$TB" sweep "${w[@]}" --find-max-accelerators --no-progress
folder=$(json_last_line held.out 'd["trainbench"]["results"]')
answer=$(json_last_line held.out 'd["trainbench_sweep"]["answer_accelerators"]')
# "at each side" only where both sides ran 3 (issue 46.9): here the count above the answer is
# no verdict (the dataset too small), so only the answer's side holds.
# The side above is held only where full-length runs ran there: on a busy box a probe at 11
# can fail while no full-length run is made above the answer (CI, 2026-11-29:
# first_failure_accelerators 11, the confirmation's first_failure none), and the line then
# names the answer's side alone.
if [ "$(json_last_line held.out 'd["trainbench_sweep"]["confirmation"]["first_failure"] is None')" = True ]; then
  contains held.out "held by full-length runs: $answer passed 3 of 3"
  if grep -q "at each side" held.out; then fail "'at each side' with one side: $(grep 'held by' held.out)"; fi
else
  contains held.out "held by 3 full-length run(s) at each side: $answer passed"
fi
check "the spread in the final line and summary: 3 runs at the answer" "$PY" - held.out "$folder/summary.json" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["trainbench_sweep"]
s = json.load(open(sys.argv[2]))
for c in (line["confirmation"], s["confirmation"]):
    a = c["answer"]
    assert c["runs_per_side"] == 3 and a["accelerators"] == s["answer_accelerators"], c
    assert a["runs"] == 3, a
    assert a["au_min_percentage"] <= a["au_median_percentage"] <= a["au_max_percentage"], a
    f = c["first_failure"]  # none where the dataset ended the search; on a busy box, 11 may fail
    assert c["stable"] == (a["passed"] == 3 and (f is None or f["passed"] == 0)), c
reps = sorted(p["repeat"] for p in s["probes"] if p["full"] and p["accelerators"] == s["answer_accelerators"])
assert reps == [0, 1, 2], reps
assert len(open(sys.argv[2].replace("summary.json", "probes.jsonl")).read().splitlines()) == len(s["probes"])
PY

# The repeats are journaled: the journal says the third run at the answer failed on a host
# 97% busy with its compute timers 20 ms late at p99 and 4 ms on average (as a neighbour's load
# leaves it: 28 AU points of the 18.5 it missed, so the lateness explains it); the same
# command runs nothing again and names the disagreement and its cause, picking no side.
"$PY" - "$folder/probes.jsonl" "$answer" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
rows = [json.loads(l) for l in open(path)]
for r in rows:
    if r["full"] and r["accelerators"] == n and r["repeat"] == 2:
        r.update(passed=False, verdict="FAIL", au_percentage=71.5, host_busy_share=0.97,
                 timer_late_p99_ms=20.0, timer_late_mean_ms=4.0, page_cache_fraction=0.0)
open(path, "w").write("".join(json.dumps(r) + "\n" for r in rows))
PY
runs_before=$(ls "$folder/probes" | wc -l)
expect_exit 0 again.out "$TB" sweep "${w[@]}" --find-max-accelerators --no-progress
check "the rerun ran no probe or repeat again" test "$(ls "$folder/probes" | wc -l)" = "$runs_before"
contains again.out "the answer is not stable: $answer passed 2 of 3 full-length runs, the failing one client-bound ("
contains again.out "busy 97%"
check "the disagreement in the summary and the final line" "$PY" - again.out "$folder/summary.json" "$answer" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["trainbench_sweep"]
s = json.load(open(sys.argv[2]))
n = int(sys.argv[3])
for d in (line, s):
    assert d["stable"] is False and d["confirmed"] is False, d
    assert d["answer_accelerators"] == n, d  # the search's answer is not replaced by one side
    assert d["sentence"].startswith("the answer is not stable: "), d["sentence"]
    a = d["confirmation"]["answer"]
    assert a["runs"] == 3 and a["passed"] == 2 and a["au_min_percentage"] == 71.5, a
PY
done_ok
