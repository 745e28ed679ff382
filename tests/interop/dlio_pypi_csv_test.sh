# DLIO 2.0.0 from PyPI (the release requirements.txt pins) trains over datagen's csv files, and
# trainbench over DLIO's, 40 samples an epoch each way. DLIO 2.0.0's reader takes a file's first
# line for a header (pandas' read_csv default): datagen writes pandas' column names "0,1,..."
# there, so it finds all 10 rows (without them, 9: "index 9 is out of bounds"). trainbench
# requests every byte of DLIO 2.0.0's files, header line and index column included, as pandas
# reads them, and counts datagen's header line once, not as a sample, when it scans its files.
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark tensorflow pandas
interop_dlio_pypi csv
check "datagen's csv has 10 rows under pandas' header line, as DLIO 2.0.0 reads it" "$PYPI_PY" -c '
import pandas, sys
x = pandas.read_csv(sys.argv[1]).to_numpy()
assert x.shape == (10, 100 * 100) and x.min() >= 0 and x.max() <= 254, x.shape
' "$WORK/ours_csv/train/img_0_of_4.csv"
interop_run_scans_ours csv
done_ok
