# DLIO from PyPI and trainbench each other's peers under mpirun with 2 ranks: DLIO's 2 ranks
# (mpi4py's wheel on Debian's Open MPI) train over datagen's npz and tfrecord datasets, 20
# samples a rank an epoch, and trainbench's 2 ranks over what DLIO's 2 ranks generated.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "command -v mpirun" "$MPI_NEEDS"
skip_unless_pypi dlio_benchmark tensorflow mpi4py
interop_dlio_pypi npz 2
interop_dlio_pypi tfrecord 2
check "DLIO ran 2 ranks" test "$(ls "$WORK/dlio_reads_npz"/*_output.json | wc -l)" = 2
done_ok
