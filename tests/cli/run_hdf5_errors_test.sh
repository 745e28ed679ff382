#!/usr/bin/env bash
# A damaged HDF5 dataset fails a run with one trainbench error naming the file and HDF5's
# reason: no HDF5-DIAG stack dumps from the reader threads (libhdf5's error printing is
# per thread) and no "infinite loop closing library" at exit.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
args=(dataset.format=hdf5 dataset.num_files_train=4 dataset.num_samples_per_file=10
  dataset.record_length_bytes=10000 dataset.compression=gzip dataset.compression_level=1
  dataset.enable_chunking=true dataset.chunk_size=10000 "dataset.data_folder=$WORK/d"
  "output.folder=$WORK/out" reader.batch_size=2 reader.read_threads=4 train.computation_time=0)
"$TB" datagen resnet50_h100 "${args[@]}" --no-progress --no-warnings >/dev/null 2>err.txt ||
  fail "datagen: $(cat err.txt)"
# Random bytes barely compress: the middle of each file is inside a deflated chunk.
python3 - "$WORK"/d/train/*.hdf5 <<'PY'
import sys
for path in sys.argv[1:]:
    data = bytearray(open(path, "rb").read())
    middle = len(data) // 2
    data[middle:middle + 256] = b"\xff" * 256
    open(path, "wb").write(data)
PY
rc=0
"$TB" run resnet50_h100 "${args[@]}" --accelerators 4 --no-warnings >out.txt 2>err.txt || rc=$?
check "a damaged hdf5 file fails the run with exit 1 (got $rc)" test "$rc" = 1
check "no HDF5-DIAG dump: $(grep -m1 HDF5-DIAG err.txt || true)" test "$(grep -c HDF5-DIAG err.txt)" = 0
check "no infinite loop closing the library" test "$(grep -c 'infinite loop' err.txt)" = 0
check "one error line: $(cat err.txt)" test "$(grep -c '^trainbench: error:' err.txt)" = 1
check "the error names the file and HDF5's reason: $(grep error: err.txt)" \
  grep -Eq "error: HDF5 read of sample [0-9]+ \(dataset 'records_0'\) failed in '$WORK/d/train/img_[0-9]_of_4.hdf5': .*inflate" err.txt
check "only trainbench's lines on stderr: $(grep -v '^trainbench: ' err.txt | head -3)" \
  test "$(grep -vc '^trainbench: ' err.txt)" = 0
echo OK
