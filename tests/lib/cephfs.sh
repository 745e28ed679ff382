# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): jobs on the suite's CephFS (cephfs/),
# mounted by its own ceph-fuse on each of the network-namespace hosts hosta and hostb and on
# this host, at the same path, started once for the suite by tests/cephfs/cluster.sh (the
# cephfs.cluster_start/_stop fixtures). A test starts with
#   cephfs_use_cluster      # loads $CEPHFS_DIR/env; the skip rule; sets CEPHFS_WORK
# and works in CEPHFS_WORK, a folder of its own on CephFS removed at its exit.

# cephfs_use_cluster: the cluster's env; CEPHFS_WORK (a fresh folder on CephFS for this
# test, removed at exit); CEPHFS_MPIRUN_ARGS (mpirun's flags for the two hosts).
cephfs_use_cluster() {
  if [ -n "${CEPHFS_DIR:-}" ] && [ -f "$CEPHFS_DIR/env" ]; then
    # shellcheck disable=SC1091
    source "$CEPHFS_DIR/env"
  fi
  skip_unless '[ -n "${CEPHFS_MNT:-}" ] && mountpoint -q "$CEPHFS_MNT"' \
    "no CephFS (CEPHFS_DIR='${CEPHFS_DIR:-}' has no env file or mount: cephfs.cluster_start failed or skipped)"
  CEPHFS_WORK=$CEPHFS_MNT/$(basename "$0" .sh).$$
  rm -rf "$CEPHFS_WORK"
  mkdir -p "$CEPHFS_WORK"
  at_exit "rm -rf '$CEPHFS_WORK'"
  mapfile -t CEPHFS_MPIRUN_ARGS <"$CEPHFS_HOSTS/mpirun.args"
}

# cephfs_mpirun SECONDS MPIRUN-ARGS...: mpirun over hosta and hostb (one slot each), killed
# with its ranks after SECONDS.
cephfs_mpirun() {
  local seconds=$1
  shift
  timeout -k 5 "$seconds" mpirun "${CEPHFS_MPIRUN_ARGS[@]}" "$@"
}

# cephfs_on HOST SECONDS COMMAND ARGS...: one command on hosta or hostb (its network and mount
# namespaces, as the ranks run), its arguments quoted for the agent's shell, bounded in time.
cephfs_on() {
  local host=$1 seconds=$2
  shift 2
  timeout -k 5 "$seconds" "$CEPHFS_HOSTS/rsh" "$host" "$(printf '%q ' "$@")"
}

# cephfs_workload FILES EPOCHS [OVERRIDES...]: sets w, the cephfs tests' small resnet50_h100
# (FILES files of 8 samples, sizes varied; batch 4, 2 ms steps) with its data in
# CEPHFS_WORK/data, and OVERRIDES after.
cephfs_workload() {
  local files=$1 epochs=$2
  shift 2
  w=(resnet50_h100 "dataset.num_files_train=$files" dataset.num_samples_per_file=8
    dataset.record_length_bytes_stdev=20000 "dataset.data_folder=$CEPHFS_WORK/data"
    train.computation_time=0.002 reader.batch_size=4 "train.epochs=$epochs" "$@")
}
