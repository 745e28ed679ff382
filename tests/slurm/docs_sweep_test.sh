#!/usr/bin/env bash
# docs/slurm/sweep.sbatch with this suite's paths: datagen, then `sweep --find-max-accelerators`
# over 2 nodes, one rank each. The job completes with one answer, and every probe ran over
# both ranks.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
slurm_use_cluster

keys="dataset.num_files_train=96 dataset.num_samples_per_file=1 dataset.record_length_bytes=10000"
keys+=" dataset.record_length_bytes_stdev=0 reader.batch_size=1 train.computation_time=0.005 train.epochs=1"
job=$(TRAINBENCH=$TB WORKLOAD=resnet50_h100 DATA=$WORK/data RESULTS=$WORK/out \
  TRAINBENCH_KEYS="$keys" SWEEP_ARGS="--min 2 --max 8" \
  slurm_sbatch --output="$WORK/job.out" --error="$WORK/job.err" "$SRC/docs/slurm/sweep.sbatch")
state=$(slurm_wait_job "$job" 150)
[ "$state" = COMPLETED ] || { cat job.out job.err; fail "job $job ended $state"; }
folder=$(json_last_line job.out 'd["trainbench"]["results"]')
check "one answer over 2 ranks, every probe over both" "$PY" - "$folder/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["ranks"] == 2, s
assert s["probes"] and s["answer_accelerators"] >= 0, s
for p in s["probes"]:
    run = json.load(open(p["results"] + "/summary.json"))
    assert run["num_ranks"] == 2 and run["num_accelerators"] == p["accelerators"], (p, run)
    assert [h["host"] for h in run["hosts"]] == ["hosta", "hostb"], run["hosts"]
PY
check "one final line (rank 0's)" test "$(grep -c '"trainbench_sweep"' job.out)" = 1
done_ok
