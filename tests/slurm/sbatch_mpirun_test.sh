#!/usr/bin/env bash
# A batch job whose script calls mpirun inside its allocation, as many sites' job scripts do:
# Open MPI reads the allocation (SLURM_JOB_NODELIST, SLURM_TASKS_PER_NODE) and starts its
# daemons through srun, so mpirun is given no host list and still puts 2 ranks on each node.
# datagen and run both run in the job; run takes the same samples and bytes as one process
# driving the same 4 accelerators. The job is waited for in a bounded loop (slurm_wait_job).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
slurm_use_cluster

common=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=3 train.epochs=2 --no-progress)
{
  echo '#!/bin/bash'
  echo '#SBATCH --nodes=2 --ntasks-per-node=2'
  echo 'set -e'
  echo 'echo "nodes: $SLURM_JOB_NODELIST tasks: $SLURM_NTASKS"'
  printf 'mpirun --allow-run-as-root --mca btl tcp,self %q datagen %s\n' "$TB" "$(printf '%q ' resnet50_h100 "${MPI_SMALL[@]}" --no-progress)"
  printf 'mpirun --allow-run-as-root --mca btl tcp,self %q run %s -a 1\n' "$TB" "$(printf '%q ' "${common[@]}")"
} >job.sh
job=$(slurm_sbatch -o "$WORK/job.out" job.sh)
state=$(slurm_wait_job "$job" 150)
[ "$state" = COMPLETED ] || { cat job.out; fail "job $job ended $state"; }
contains job.out "nodes: hosta,hostb tasks: 4"
contains job.out "datagen: 16 files (16 written"
contains job.out "over 4 ranks on 2 host(s) (hosta, hostb)"
mv out out.job
s=$(ls "$WORK"/out.job/*/summary.json)
check "a row per host, 2 ranks each: $(json "$s" 'd["hosts"]')" \
  test "$(json "$s" '[(h["host"], h["ranks"], h["accelerators"]) for h in d["hosts"]]')" = \
  "[('hosta', [0, 1], 2), ('hostb', [2, 3], 2)]"

"$TB" run "${common[@]}" -a 4 >one.txt 2>&1 || { cat one.txt; fail "run, one process"; }
figures() { json "$1" '[(p["samples"], p["requested_bytes"]) for p in d["phases"]]'; }
check "the job took the samples and bytes of one process with 4 accelerators" \
  test "$(figures "$s")" = "$(figures "$(newest_summary)")"
done_ok
