#!/usr/bin/env bash
# sweep under mpirun with 2 ranks: every count is split over the ranks (a probe at 5 is 3 + 2),
# every rank takes rank 0's verdict, so they run the same probes and end together with one
# answer; a grid over --accelerators runs each point over both ranks. (stdout apart from stderr:
# mpirun interleaves the ranks' stderr after rank 0's last line.)
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
w=(resnet50_h100 dataset.num_files_train=240 dataset.num_samples_per_file=1 dataset.record_length_bytes=10000
   dataset.record_length_bytes_stdev=0 "dataset.data_folder=$WORK/data" "output.folder=$WORK/out"
   reader.batch_size=1 train.computation_time=0.005 train.epochs=1)
"$TB" datagen "${w[@]}" --no-progress >/dev/null 2>&1 || fail "datagen"
mpi_launch 240 -np 2 "$TB" sweep "${w[@]}" --find-max-accelerators --min 2 --max 64 --no-progress \
  >find.out 2>find.err || { cat find.out find.err; fail "sweep over 2 ranks"; }
folder=$(json_last_line find.out 'd["trainbench"]["results"]')
check "one confirmed answer over 2 ranks, no count below --min" "$PY" - "$folder/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
# Where the search ends depends on this box's load (the dataset's limit on a quiet box, an AU
# failure under ctest -j2): what holds either way is one confirmed answer, N* passing, N*+1 not,
# and never a count below --min (a rank with no accelerator).
assert s["ranks"] == 2, s
# The search ends at the range, at a failure one above the answer, or where the dataset gives
# no verdict: found growing, or by full-length runs stepping up to it after probes that failed
# on a busy host (CI, 2026-11-29: 16 and 12 failed as probes, full-length runs held up to 26,
# 27 no verdict).
ends = s["limited_by_dataset"] or s["limited_by_range"] or \
    s["first_failure_accelerators"] == max(s["answer_accelerators"] + 1, s["min_accelerators"]) or \
    s["no_verdict_accelerators"] == s["answer_accelerators"] + 1
assert ends and s["probes"], json.dumps(s, indent=1)
assert all(p["accelerators"] >= 2 for p in s["probes"]), s["probes"]
for p in s["probes"]:
    run = json.load(open(p["results"] + "/summary.json"))
    assert run["num_ranks"] == 2 and run["num_accelerators"] == p["accelerators"], (p, run["num_accelerators"])
PY
check "one final line (rank 0's)" test "$(grep -c '"trainbench_sweep"' find.out)" = 1

mpi_launch 240 -np 2 "$TB" sweep "${w[@]}" --accelerators 2,5 --no-progress >grid.out 2>grid.err ||
  { cat grid.out grid.err; fail "grid over 2 ranks"; }
grid=$(json_last_line grid.out 'd["trainbench"]["results"]')
check "the grid's points over both ranks" "$PY" - "$grid/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert [p["values"]["accelerators"] for p in s["points"]] == ["2", "5"], s["points"]
for p in s["points"]:
    run = json.load(open(p["run"]["results"] + "/summary.json"))
    assert run["num_ranks"] == 2 and run["num_accelerators"] == int(p["values"]["accelerators"]), run
PY
done_ok
