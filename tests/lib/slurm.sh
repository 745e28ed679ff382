# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): jobs on the suite's Slurm cluster
# (slurm/): slurmctld and a slurmd in each of the network-namespace hosts hosta and hostb,
# started once for the suite by tests/slurm/cluster.sh (the slurm.cluster_start/_stop
# fixtures). A test starts with
#   slurm_use_cluster       # loads $SLURM_CLUSTER_DIR/env (SLURM_CONF, NETNS_*); skip rule
# and bounds every command: slurm_srun SECONDS ARGS..., slurm_wait_job JOBID SECONDS.

# slurm_use_cluster: the cluster's env (SLURM_CLUSTER_DIR/env) unless SLURM_CONF is already
# set; without one, the skip rule (skip.sh).
slurm_use_cluster() {
  if [ -z "${SLURM_CONF:-}" ] && [ -n "${SLURM_CLUSTER_DIR:-}" ] && [ -f "$SLURM_CLUSTER_DIR/env" ]; then
    # shellcheck disable=SC1091
    source "$SLURM_CLUSTER_DIR/env"
  fi
  skip_unless '[ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]' \
    "no Slurm cluster (SLURM_CLUSTER_DIR='${SLURM_CLUSTER_DIR:-}' has no env file: slurm.cluster_start failed or skipped)"
}

# slurm_srun SECONDS SRUN-ARGS...: srun, killed (with its step) after SECONDS.
slurm_srun() {
  local seconds=$1
  shift
  timeout -k 5 "$seconds" srun "$@"
}

# slurm_mpirun SECONDS MPIRUN-ARGS...: Open MPI's mpirun over the cluster's two hosts
# (netns_hosts.sh's flags: hostfile with 2 slots each, the rsh agent), outside Slurm.
slurm_mpirun() {
  local seconds=$1 args
  shift
  mapfile -t args <"$SLURM_CLUSTER_HOSTS/mpirun.args"
  timeout -k 5 "$seconds" mpirun "${args[@]}" "$@"
}

# slurm_job_state JOBID: the job's state (PENDING, RUNNING, COMPLETED, CANCELLED, FAILED...).
# slurmctld keeps ended jobs for MinJobAge (600 s in cluster.sh), so no accounting is needed.
slurm_job_state() {
  timeout -k 2 10 scontrol show job -o "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2
}

# slurm_wait_job JOBID SECONDS: until the job has ended (at most SECONDS); prints its final
# state. A job still running at the deadline is cancelled and the test fails.
slurm_wait_job() {
  local job=$1 seconds=$2 state="" i
  for ((i = 0; i < seconds * 5; i++)); do
    state=$(slurm_job_state "$job")
    case $state in
      PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | "") sleep 0.2 ;;
      *)
        echo "$state"
        return 0
        ;;
    esac
  done
  timeout 10 scancel "$job" 2>/dev/null || true
  fail "job $job still $state after $seconds s"
}

# slurm_sbatch SBATCH-ARGS...: submits; prints the job id.
slurm_sbatch() {
  timeout -k 2 20 sbatch --parsable "$@" | cut -d';' -f1
}

# slurm_long_job FILE EPOCHS [SBATCH_OPTIONS]: writes the job script FILE: `srun trainbench run`
# of resnet50_h100 on MPI_SMALL's dataset (made beforehand) over 2 nodes, one task each, for
# EPOCHS epochs of 10 ms steps: a job that runs until Slurm ends it (scancel, a time limit).
slurm_long_job() {
  local file=$1 epochs=$2 options=${3:-}
  local run=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=4 "train.epochs=$epochs"
    train.computation_time=0.01 -a 1)
  {
    echo '#!/bin/bash'
    echo "#SBATCH --nodes=2 --ntasks-per-node=1${options:+ $options}"
    printf 'srun %q run %s\n' "$TB" "$(printf '%q ' "${run[@]}")"
  } >"$file"
}

# slurm_check_partial_results EPOCHS WHAT: the results of a slurm_long_job that Slurm ended
# (scancel, a time limit): summary.json marked incomplete with an interrupted stop reason,
# every rank's row or rank 0's with the others counted missing (which one depends on whether
# their records reached rank 0 before its own signal did: as under mpirun), the job's output
# saying so, and at least EPOCHS epochs kept (WHAT says which).
slurm_check_partial_results() {
  local epochs=$1 what=$2 s
  s=$(newest_summary)
  json "$s" 'd["complete"], d["stop_reason"], d.get("ranks_missing"), len(d["phases"])'
  check "summary.json is marked incomplete" test "$(json "$s" 'd["complete"]')" = False
  check "the stop reason says interrupted: $(json "$s" 'd["stop_reason"]')" \
    grep -q interrupted <<<"$(json "$s" 'd["stop_reason"]')"
  check "rank 0's row, and rank 1's or it counted missing: $(json "$s" 'd["ranks"], d.get("ranks_missing")' | cut -c1-300)" \
    test "$(json "$s" '[(r["rank"], r["host"]) for r in d["ranks"]] in ([(0, "hosta"), (1, "hostb")], [(0, "hosta")]) and (len(d["ranks"]) == 2 or d["ranks_missing"] == 1)')" = True
  contains job.out "partial results (marked incomplete)"
  check "$what are kept" \
    test "$(json "$s" "len([p for p in d['phases'] if p['complete']]) >= $epochs")" = True
}
