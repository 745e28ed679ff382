#!/usr/bin/env bash
# docs/slurm/mlperf_storage.sbatch as the page gives it, submitted with this suite's paths in
# its environment variables (sbatch passes the environment on): datagen then run over 2 nodes,
# one rank each. The job completes, with a row per node and every node's accelerators.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
slurm_use_cluster

job=$(TRAINBENCH=$TB WORKLOAD=resnet50_h100 DATA=$WORK/data RESULTS=$WORK/out ACCELERATORS=2 \
  TRAINBENCH_KEYS="dataset.num_files_train=16 dataset.num_samples_per_file=8 train.epochs=2 train.computation_time=0.002 reader.batch_size=2" \
  slurm_sbatch --output="$WORK/job.out" "$SRC/docs/slurm/mlperf_storage.sbatch")
state=$(slurm_wait_job "$job" 120)
[ "$state" = COMPLETED ] || { cat job.out; fail "job $job ended $state"; }
contains job.out "datagen: 16 files (16 written"
s=$(newest_summary)
check "complete, 2 hosts, 2 ranks, 4 accelerators" test \
  "$(json "$s" 'd["complete"], d["num_hosts"], d["num_ranks"], d["num_accelerators"]')" = "(True, 2, 2, 4)"
check "a row per node: $(json "$s" 'd["hosts"]')" \
  test "$(json "$s" '[(h["host"], h["ranks"], h["accelerators"]) for h in d["hosts"]]')" = \
  "[('hosta', [0], 2), ('hostb', [1], 2)]"
check "two epochs read" test "$(json "$s" 'len([p for p in d["phases"] if p["kind"] == "train"])')" = 2
done_ok
