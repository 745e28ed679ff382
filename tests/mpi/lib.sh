# Shared setup for the Open MPI tests (tests/mpi/*_test.sh): the run helpers of the CLI
# tests, and `launch`, mpirun as these tests use it on one machine: as root, more ranks
# than cores, shared memory and TCP over loopback only, bounded in time. Sourced.
MPI_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$MPI_TESTS/../cli/lib/run_common.bash"

# A skip is a failure in CI: the suite must really run these.
skip() {
  [ "${CI:-}" = true ] && fail "cannot run: $*"
  echo "SKIP: $*"
  exit 77
}
command -v mpirun >/dev/null || skip "no mpirun (Debian's openmpi-bin)"

MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo)

# launch SECONDS MPIRUN-ARGS...: mpirun, killed (with its ranks) after SECONDS.
launch() {
  local seconds=$1
  shift
  timeout -k 5 "$seconds" "${MPIRUN[@]}" "$@"
}

# A dataset whose sample sizes vary (so the sum of the samples an epoch took tells which
# ones it took): 16 files x 8 samples.
SMALL=(dataset.num_files_train=16 dataset.num_samples_per_file=8 dataset.record_length_bytes_stdev=20000
  "dataset.data_folder=$WORK/data" "output.folder=$WORK/out" train.computation_time=0.002)

# newest_summary: the newest results folder's summary.json
newest_summary() { echo "$(results_dir)/summary.json"; }
