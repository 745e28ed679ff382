# trainbench trains over DLIO 2.0.0's (PyPI's) hdf5 files with the same sample counts. The other
# way is a known version difference (docs/formats.md): datagen writes the dataset records_0, as
# DLIO's current generator and reader do, and PyPI's DLIO 2.0.0 reads only 'records'.
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark tensorflow
interop_dlio_reads_ours hdf5 1 && fail "DLIO 2.0.0 read datagen's records_0: update docs/formats.md and this test"
check "DLIO 2.0.0 looks for its dataset 'records' in datagen's hdf5" \
  grep -q "object 'records' doesn't exist" "$WORK/dlio_reads_hdf5/stdout.txt"
interop_run_reads_dlio hdf5 1
done_ok
