#!/usr/bin/env bash
# TFRecord files from datagen read by an independent reader (framing, CRCs, Example
# fields); sample sizes follow record_length_bytes and its stdev, each a side x side image as
# DLIO writes it; the manifest's
# extents point at the records.
source "$(dirname "$0")/../lib/common.sh"
d=$WORK/d
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=3 dataset.num_files_eval=1 \
  dataset.num_samples_per_file=20 dataset.record_length_bytes=3000 dataset.record_length_bytes_stdev=500 \
  dataset.data_folder="$d" --verify
$PY "$(dirname "$0")/tfrecord_reader.py" "$d"/train/*.tfrecord "$d"/valid/*.tfrecord >"$WORK/read"
check "four files read" test "$(wc -l <"$WORK/read")" -eq 4
check "20 records per file" test "$(awk '{print $2}' "$WORK/read" | sort -u)" = 20
$PY - "$d" <<'PY'
import json, os, statistics, sys
root = sys.argv[1]
m = json.load(open(os.path.join(root, "trainbench_manifest.json")))
assert m["generation"]["format"] == "tfrecord"
assert [f["path"] for f in m["files"]] == ["train/img_0_of_3.tfrecord", "train/img_1_of_3.tfrecord",
                                         "train/img_2_of_3.tfrecord", "valid/img_0_of_1.tfrecord"], m["files"]
sizes = []
for f in m["files"]:
    data = open(os.path.join(root, f["path"]), "rb").read()
    assert len(data) == f["size_bytes"]
    end = 0
    for off, length in zip(f["sample_offsets"], f["sample_lengths"]):
        assert off == end, (off, end)
        rec_len = int.from_bytes(data[off:off + 8], "little")
        assert length == rec_len + 16
        end = off + length
        sizes.append(rec_len)
    assert end == len(data)
# payload sizes spread around 3000 with stdev about 500 (Example framing adds ~25 bytes)
mean, stdev = statistics.mean(sizes), statistics.pstdev(sizes)
assert 2800 < mean < 3300 and 300 < stdev < 700, (mean, stdev)
print("manifest ok", len(sizes), round(mean), round(stdev))
PY
checks=$((checks + 1))

# resnet50's record_length_bytes (114660.07) as DLIO writes it: 338 x 338 = 114,244-byte images.
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=1 \
  dataset.num_samples_per_file=3 dataset.data_folder="$WORK/r50"
check "resnet50's images are 338 x 338 bytes, size DLIO's dimension 338" test "$($PY \
  "$(dirname "$0")/tfrecord_reader.py" "$WORK/r50/train/img_0_of_1.tfrecord" | awk '{print $2, $3, $4}')" = \
  "3 342732 338"
done_ok
