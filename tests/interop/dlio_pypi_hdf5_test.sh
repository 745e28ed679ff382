# DLIO 2.0.0 from PyPI (the release requirements.txt pins) trains over datagen's hdf5 files, and
# trainbench over DLIO's, 40 samples an epoch each way. DLIO 2.0.0's reader reads the dataset
# `records`, upstream's (v2.0.1 on) `records_0`: datagen writes records_0 and `records`, a hard
# link to it, and without the link DLIO 2.0.0 stops in its first batch ("object 'records'
# doesn't exist"). trainbench's own scan counts the two names as one set of samples.
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark tensorflow h5py
interop_dlio_pypi hdf5
check "datagen's records is records_0 (one dataset, two names)" "$PYPI_PY" -c '
import h5py, sys
with h5py.File(sys.argv[1]) as h:
    assert h["records"] == h["records_0"] and h["records_0"].shape == (10, 100, 100), dict(h)
' "$WORK/ours_hdf5/train/img_0_of_4.hdf5"
interop_run_scans_ours hdf5
done_ok
