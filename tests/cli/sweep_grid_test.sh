#!/usr/bin/env bash
# sweep over a grid (KEY=V1,V2 and --accelerators A,B): a run per point, each in the sweep's
# folder, the summary and points.csv; killed with SIGKILL mid-grid, the same command runs only
# the points not journaled; refusals (a key swept twice, a value the config refuses, an empty
# value list) exit 2 before any run.
source "$(dirname "$0")/../lib/common.sh"

w=(resnet50_h100 dataset.num_files_train=200 dataset.num_samples_per_file=1 dataset.record_length_bytes=20000
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/d" reader.batch_size=1
   train.computation_time=0.01 train.epochs=1 output.folder="$WORK/out")
expect_exit 0 "$WORK/datagen.out" "$TB" datagen "${w[@]}" --no-progress

# Killed after the second point is journaled.
"$TB" sweep "${w[@]}" reader.read_threads=1,2,4 --accelerators 1,2 --no-progress \
  >"$WORK/killed.out" 2>&1 &
pid=$!
journal=
for _ in $(seq 300); do
  journal=$(ls "$WORK"/out/sweep-*/points.jsonl 2>/dev/null | head -1) || true
  [ -n "$journal" ] && [ "$(wc -l <"$journal")" -ge 2 ] && break
  sleep 0.05
done
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
before=$(wc -l <"$journal")
check "points journaled before the kill" test "$before" -ge 2
check "the kill came before the end" test "$before" -lt 6

expect_exit 0 "$WORK/again.out" "$TB" sweep "${w[@]}" reader.read_threads=1,2,4 --accelerators 1,2 --no-progress
check "the rerun resumed the journaled points" \
  test "$(json_last_line "$WORK/again.out" 'd["trainbench_sweep"]["points_resumed"]')" = "$before"
check "every point is done" \
  test "$(json_last_line "$WORK/again.out" 'd["trainbench_sweep"]["points_done"]')" = 6
check "the journal has each point once" test "$(wc -l <"$journal")" = 6
folder=$(json_last_line "$WORK/again.out" 'd["trainbench"]["results"]')
check "summary: the grid's points in order, each with its run" "$PY" - "$folder/summary.json" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
assert s["kind"] == "sweep" and s["mode"] == "grid" and s["complete"], s
got = [(p["values"]["accelerators"], p["values"]["reader.read_threads"]) for p in s["points"]]
assert got == [(a, t) for a in ("1", "2") for t in ("1", "2", "4")], got
for p in s["points"]:
    assert os.path.exists(os.path.join(p["run"]["results"], "summary.json")), p
    run = json.load(open(os.path.join(p["run"]["results"], "summary.json")))
    assert run["num_accelerators"] == int(p["values"]["accelerators"]), run["num_accelerators"]
PY
check "points.csv has a row per point" test "$(($(wc -l <"$folder/points.csv") - 1))" = 6
check "points.csv: each row names its point's swept values" "$PY" - "$folder/points.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["accelerators"], r["reader.read_threads"]) for r in rows]
assert got == [(a, t) for a in ("1", "2") for t in ("1", "2", "4")], got
PY

# A finished grid again: nothing runs, and its summary is left as it was.
cp "$folder/summary.json" "$WORK/summary.before"
expect_exit 0 "$WORK/third.out" "$TB" sweep "${w[@]}" reader.read_threads=1,2,4 --accelerators 1,2 --no-progress
check "nothing ran the third time" \
  test "$(json_last_line "$WORK/third.out" 'd["trainbench_sweep"]["points_resumed"]')" = 6
check "a rerun that ran nothing leaves the summary as it was" cmp -s "$folder/summary.json" "$WORK/summary.before"

# Refusals before any run.
expect_exit 2 "$WORK/twice.out" "$TB" sweep "${w[@]}" reader.read_threads=1,2 reader.read_threads=3,4 --no-progress
contains "$WORK/twice.out" "swept twice"
expect_exit 2 "$WORK/bad.out" "$TB" sweep "${w[@]}" reader.read_threads=1,0 output.folder="$WORK/bad" --no-progress
contains "$WORK/bad.out" "reader.read_threads"
# A key swept and given plainly too: the plain value silently won on every point.
expect_exit 2 "$WORK/both_kinds.out" "$TB" sweep "${w[@]}" reader.read_threads=1,2 reader.read_threads=3 \
  output.folder="$WORK/bad" --no-progress
contains "$WORK/both_kinds.out" "reader.read_threads is swept (1,2) and also given as reader.read_threads=3"
check "no run for a refused grid" test -z "$(find "$WORK/bad" -name summary.json 2>/dev/null)"
expect_exit 2 "$WORK/none.out" "$TB" sweep "${w[@]}" --no-progress
contains "$WORK/none.out" "--find-max-accelerators"
expect_exit 2 "$WORK/both.out" "$TB" sweep "${w[@]}" --find-max-accelerators --accelerators 1,2 --no-progress
contains "$WORK/both.out" "drop --accelerators"
done_ok
