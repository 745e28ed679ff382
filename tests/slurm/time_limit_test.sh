#!/usr/bin/env bash
# A job that reaches its time limit is ended by Slurm as scancel ends one (SIGTERM, then
# SIGKILL after KillWait): its state is TIMEOUT and rank 0 writes summary.json marked
# incomplete ("interrupted") with the epochs finished in time. At the limit Slurm signals each
# task twice within milliseconds: a second SIGTERM once made trainbench exit at once, with no
# results (src/common/interrupt.cc: only a second SIGINT does now). Slurm's
# limits are whole minutes (--time=0:15 is taken as 1:00) and slurmctld looks at them every
# 30 s or so, so this test takes 60-95 s: the slowest of the suite.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
slurm_use_cluster

"$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >/dev/null 2>&1 || fail "datagen"
slurm_long_job job.sh 5000 --time=1
job=$(slurm_sbatch -o "$WORK/job.out" job.sh)
at_exit "timeout 10 scancel $job 2>/dev/null"
wait_for_line job.out "epoch 3/5000" "the job did not get going"
state=$(slurm_wait_job "$job" 150)
check "the job ends as TIMEOUT (not $state)" test "$state" = TIMEOUT
contains job.out "DUE TO TIME LIMIT"
slurm_check_partial_results 10 "the epochs of the minute"
done_ok
