# trainbench trains over DLIO 2.0.0's (PyPI's) csv files with the same sample counts. The other
# way is a known version difference (docs/formats.md): datagen writes rows only, as DLIO's
# current generator (to_csv(index=False, header=False)) does; PyPI's DLIO 2.0.0 reads the first
# row as a header, so a file of 10 samples has 9 for it.
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark tensorflow
interop_dlio_reads_ours csv 1 && fail "DLIO 2.0.0 read datagen's csv: update docs/formats.md and this test"
check "DLIO 2.0.0 finds 9 samples in datagen's 10-row csv" \
  grep -q "index 9 is out of bounds for axis 0 with size 9" "$WORK/dlio_reads_csv/stdout.txt"
interop_run_reads_dlio csv 1
done_ok
