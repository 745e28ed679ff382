#!/usr/bin/env bash
# A job that Slurm ends (scancel) keeps what it measured: Slurm sends every task SIGTERM
# (KillWait before SIGKILL), each rank stops as on Ctrl-C, and rank 0 writes summary.json
# marked incomplete (complete false, stop_reason "interrupted") with the epochs finished
# before the signal, and every rank's row or its own with ranks_missing (which one depends
# on whether the others' records reach rank 0 before its own signal does).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
slurm_use_cluster

"$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >/dev/null 2>&1 || fail "datagen"
slurm_long_job job.sh 400
job=$(slurm_sbatch -o "$WORK/job.out" job.sh)
at_exit "timeout 10 scancel $job 2>/dev/null"
wait_for_line job.out "epoch 3/400" "the job did not get going"
check "the job runs before the cancel" test "$(slurm_job_state "$job")" = RUNNING
timeout 10 scancel "$job"
state=$(slurm_wait_job "$job" 60)
check "scancel ends the job as CANCELLED (not $state)" test "$state" = CANCELLED
slurm_check_partial_results 2 "the epochs finished before the signal"
done_ok
