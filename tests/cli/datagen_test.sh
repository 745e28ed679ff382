#!/usr/bin/env bash
# datagen end to end: the issue's example (8 TFRecord files of 1251 records plus a
# manifest), DLIO names and layout (zero padding, valid/, subfolders), determinism,
# re-runs that skip finished files, and --verify catching a corrupted file.
source "$(dirname "$0")/../lib/common.sh"

d=$WORK/d
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=8 dataset.data_folder="$d" --verify
contains "$WORK/out" "datagen: 8 files (8 written, 0 already complete)"
contains "$WORK/out" "verify: 8 files OK"
check "8 tfrecord files" test "$(ls "$d/train" | grep -c '\.tfrecord$')" -eq 8
check "manifest exists" test -f "$d/trainbench_manifest.json"
$PY - "$d" <<'PY'
import json, os, sys
m = json.load(open(os.path.join(sys.argv[1], "trainbench_manifest.json")))
assert m["num_files"] == 8 and len(m["files"]) == 8
for f in m["files"]:
    assert f["num_samples"] == 1251 and len(f["sample_offsets"]) == 1251, f["path"]
    assert os.path.getsize(os.path.join(sys.argv[1], f["path"])) == f["size_bytes"]
assert m["total_bytes"] == sum(f["size_bytes"] for f in m["files"])
PY
checks=$((checks + 1))

# Re-running skips every finished file and writes nothing.
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=8 dataset.data_folder="$d"
contains "$WORK/out" "(0 written, 8 already complete)"

# Same seed, same bytes; another seed, other bytes.
small=(dataset.num_samples_per_file=5 dataset.record_length_bytes=1000 dataset.record_length_bytes_stdev=100)
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=12 dataset.num_files_eval=2 \
  dataset.num_subfolders_train=3 "${small[@]}" dataset.data_folder="$WORK/a" --threads 1
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=12 dataset.num_files_eval=2 \
  dataset.num_subfolders_train=3 "${small[@]}" dataset.data_folder="file://$WORK/b" --threads 2
check "same seed gives identical datasets" diff -r "$WORK/a" "$WORK/b"
# DLIO layout: zero-padded index, subfolders, valid/.
check "subfolder layout" test -f "$WORK/a/train/1/img_04_of_12.tfrecord"
check "eval files in valid/" test -f "$WORK/a/valid/img_1_of_2.tfrecord"
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=12 dataset.num_files_eval=2 \
  dataset.num_subfolders_train=3 "${small[@]}" train.seed=7 dataset.data_folder="$WORK/c"
check "another seed gives other bytes" bash -c "! cmp -s '$WORK/a/train/0/img_00_of_12.tfrecord' '$WORK/c/train/0/img_00_of_12.tfrecord'"

# A dataset made with other settings is not silently mixed with new files.
expect_exit 2 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=12 dataset.num_files_eval=2 \
  dataset.num_subfolders_train=3 "${small[@]}" dataset.record_length_bytes=2000 dataset.data_folder="$WORK/a"
contains "$WORK/out" "was generated with other settings: record_length_bytes"

# --verify names the first bad file and offset.
f="$WORK/a/train/2/img_05_of_12.tfrecord"
printf 'X' | dd of="$f" bs=1 seek=2500 conv=notrunc status=none
expect_exit 1 "$WORK/out" "$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=12 dataset.num_files_eval=2 \
  dataset.num_subfolders_train=3 "${small[@]}" dataset.data_folder="$WORK/a" --verify
contains "$WORK/out" "img_05_of_12.tfrecord: bad TFRecord at offset"
contains "$WORK/out" "CRC mismatch"

# Progress: plain periodic lines when not a terminal (none for a short run), a live
# line with files, bytes, GB/s and ETA on a terminal (emulated with script(1)).
check "no progress noise in a short non-terminal run" bash -c "! grep -q ETA '$WORK/out'"
if command -v script >/dev/null; then
  script -qec "$TRAINBENCH datagen resnet50_h100 dataset.num_files_train=16 dataset.num_samples_per_file=300 \
    dataset.data_folder=$WORK/tty --threads 1" "$WORK/tty.log" >/dev/null
  contains "$WORK/tty.log" "datagen: "
  contains "$WORK/tty.log" "GB/s, ETA"
fi
done_ok
