# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): Open MPI on one machine (mpi/, s3/), as
# root, more ranks than cores, shared memory and TCP over loopback only, bounded in time.
# A test that needs it starts with
#   skip_unless "command -v mpirun" "$MPI_NEEDS"
MPI_NEEDS="no mpirun (Debian's openmpi-bin)"
MPI_RUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo)

# mpi_launch SECONDS MPIRUN-ARGS...: mpirun, killed (with its ranks) after SECONDS.
mpi_launch() {
  local seconds=$1
  shift
  timeout -k 5 "$seconds" "${MPI_RUN[@]}" "$@"
}

# A dataset whose sample sizes vary (so the sum of the samples an epoch took tells which
# ones it took): 16 files x 8 samples.
MPI_SMALL=(dataset.num_files_train=16 dataset.num_samples_per_file=8 dataset.record_length_bytes_stdev=20000
  "dataset.data_folder=$WORK/data" "output.folder=$WORK/out" train.computation_time=0.002)

# mpi_two_hosts DIR: the two network-namespace hosts of tests/mpi/netns_hosts.sh under DIR for
# this test (taken down at its exit; skips where it is not root or namespaces cannot be
# made); NETNS_MPIRUN_ARGS holds the mpirun flags that reach them.
mpi_two_hosts() {
  local dir=$1 rc=0
  source "$SRC/tests/mpi/netns_hosts.sh"
  skip_unless '[ "$(id -u)" = 0 ]' "network namespaces need root"
  at_exit "netns_down '$dir' >/dev/null 2>&1"
  netns_gc >/dev/null 2>&1 || true
  netns_up "$dir" 1 >/dev/null || rc=$?
  skip_unless "[ $rc != 77 ]" "cannot make network namespaces here"
  [ "$rc" = 0 ] || fail "netns_up failed"
}
