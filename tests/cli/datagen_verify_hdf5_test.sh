#!/usr/bin/env bash
# `datagen --verify` compares an HDF5 file's records with the generator's bytes, as it
# does for the other formats: 8 flipped bytes in records_0's data fail it, naming the
# file and the byte's offset. Both layouts with a byte range per sample: contiguous and
# chunked (two samples a chunk).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
for layout in contiguous chunked; do
  args=(dataset.format=hdf5 dataset.num_files_train=4 dataset.num_samples_per_file=10
    dataset.record_length_bytes=10000 "dataset.data_folder=$WORK/$layout")
  [ "$layout" = chunked ] && args+=(dataset.enable_chunking=true dataset.chunk_size=20000)
  "$TB" datagen resnet50_h100 "${args[@]}" --verify --no-progress >out.txt 2>&1 ||
    fail "datagen: $(cat out.txt)"
  check "$layout: a fresh dataset verifies" grep -q "verify: 4 files OK" out.txt
  f="$WORK/$layout/train/img_2_of_4.hdf5"
  # 8 bytes inside sample 3's data (chunked: sample 3 is the second of chunk (2, 0, 0)).
  offset=$(/usr/bin/python3 - "$f" <<'PY'
import h5py, sys
d = h5py.File(sys.argv[1])["records_0"]
if d.chunks is None:
    print(d.id.get_offset() + 3 * 10000)
else:
    print(d.id.get_chunk_info_by_coord((2, 0, 0)).byte_offset + 10000)
PY
)
  /usr/bin/python3 - "$f" $((offset + 100)) <<'PY'
import sys
path, at = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
for i in range(at, at + 8):
    data[i] ^= 0xFF
open(path, "wb").write(data)
PY
  rc=0
  "$TB" datagen resnet50_h100 "${args[@]}" --verify --no-progress >out.txt 2>&1 || rc=$?
  check "$layout: flipped data fails verify with exit 1 (got $rc): $(cat out.txt)" test "$rc" = 1
  check "$layout: the error names the file and the byte's offset: $(cat out.txt)" \
    grep -q "img_2_of_4.hdf5: bad HDF5 file at offset $((offset + 100)).*row 3 of records_0 differs" out.txt
  check "$layout: the error names the next step" grep -q -- "--replace" out.txt
  check "$layout: the error names the next step once" test "$(grep -o -- "--replace" out.txt | wc -l)" = 1
done
echo OK
