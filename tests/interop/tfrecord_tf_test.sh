# TensorFlow from PyPI (tensorflow-cpu) and trainbench read each other's TFRecords:
# tf.data.TFRecordDataset reads datagen's files (record counts, both CRCs of every record, the
# Example protos' features through tf.io.parse_single_example), and `run` reads files that
# tf.io.TFRecordWriter wrote with the features DLIO's generator writes, every sample once an epoch.
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi tensorflow
export TF_CPP_MIN_LOG_LEVEL=2
tf_records() { "$PYPI_PY" "$INTEROP_DIR/tf_records.py" "$@"; }

# datagen's records, sizes spread by a stdev, read by TensorFlow.
d=$WORK/ours
expect_exit 0 "$WORK/log" "$TB" datagen resnet50_h100 dataset.num_files_train=3 dataset.num_files_eval=1 \
  dataset.num_samples_per_file=20 dataset.record_length_bytes=3000 dataset.record_length_bytes_stdev=500 \
  dataset.data_folder="$d" --no-progress --verify
# Each record's size feature is DLIO's dimension, int(sqrt(3000)) = 54, as DLIO writes it.
check "TensorFlow reads datagen's 4 files, 80 records" test "$(tf_records read "$d" 54 | tail -n 1)" = \
  "OK: 4 files, 80 records"

# TensorFlow checks the CRCs: one flipped payload byte is a DataLossError there.
cp "$d/train/img_1_of_3.tfrecord" "$WORK/bad.tfrecord"
printf '\x55' | dd of="$WORK/bad.tfrecord" bs=1 seek=2000 conv=notrunc status=none
"$PYPI_PY" -c 'import tensorflow as tf, sys; list(tf.data.TFRecordDataset(sys.argv[1]))' \
  "$WORK/bad.tfrecord" >"$WORK/bad.log" 2>&1 && fail "TensorFlow read a corrupted record"
check "TensorFlow names the corruption" grep -q 'DataLossError' "$WORK/bad.log"

# TensorFlow's records (4 train files x 10 samples, 100 x 100 images), run over them twice.
want=$(tf_records write "$WORK/theirs" 4 10 100) || fail "tf.io.TFRecordWriter: $want"
expect_exit 0 "$WORK/log" "$TB" run resnet50_h100 dataset.num_files_train=4 dataset.num_samples_per_file=10 \
  dataset.record_length_bytes=10000 dataset.record_length_bytes_stdev=0 reader.batch_size=10 \
  train.computation_time=0 train.epochs=2 workflow.evaluation=false dataset.data_folder="$WORK/theirs" \
  output.folder="$WORK/out" --accelerators 1 --no-warnings
tail -n 1 "$WORK/log" >"$WORK/final.json"
got=$("$PYPI_PY" - "$WORK/final.json" <<'PY'
import json, os, sys
line = json.load(open(sys.argv[1]))
m = line["trainbench_metrics"]
s = json.load(open(os.path.join(line["trainbench"]["results"], "summary.json")))
print(m["requested_bytes"], m["epochs"], m["complete"], s["train_samples"],
      [p["samples"] for p in s["phases"]])
PY
)
check "run reads TensorFlow's records: bytes, epochs, samples ($got)" \
  test "$got" = "$((2 * want)) 2 True 40 [40, 40]"
done_ok
