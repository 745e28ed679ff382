#!/usr/bin/env bash
# trainbench oplog: a run's op-log profiled (operations, bytes, objects, request sizes,
# concurrency, order; a table and a final JSON line), then issue 24's comparison for resnet50
# on a small real JPEG set: the op-log of `train` reading the JPEGs beside the `run` op-log of
# the same dataset, whole-image GETs of the same sizes over the same objects on both sides.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
cd "$WORK"
w=(resnet50_h100 dataset.format=jpeg dataset.num_files_train=24 dataset.num_samples_per_file=1
   dataset.record_length_bytes=30000 dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/j"
   reader.batch_size=4 train.epochs=1 train.computation_time=0.01 output.folder="$WORK/out")
expect_exit 0 datagen.out "$TB" datagen "${w[@]}" --no-progress
expect_exit 0 run.out "$TB" run "${w[@]}" --no-progress --op-log "$WORK/run.tsv.zst"
expect_exit 0 one.out "$TB" oplog run.tsv.zst
contains one.out "most in flight"
check "a run's profile: every file once, whole, as the JPEGs on disk" "$PY" - one.out "$WORK/j/train" <<'PY'
import json, os, sys
p = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["trainbench_oplog"][0]["profile"]
sizes = [os.path.getsize(os.path.join(sys.argv[2], f)) for f in os.listdir(sys.argv[2])]
assert p["GET count"] == p["objects"] == len(sizes) and p["objects touched twice or more"] == 0, p
assert p["GET bytes"] == sum(sizes) and p["GET size min"] == min(sizes) and p["GET size max"] == max(sizes), p
assert p["most in flight"] >= 1 and p["threads"] >= 1 and p["span s"] > 0, p
PY
expect_exit 2 notlog.out "$TB" oplog "$WORK/j/train/$(ls "$WORK/j/train" | head -n 1)"
expect_exit 2 missing.out "$TB" oplog "$WORK/none.tsv"

skip_unless train_has_libtorch "trainbench built without LibTorch (the train half)"
expect_exit 0 train.out "$TB" train "${TRAIN_TINY[@]}" --allow-cpu --steps-per-epoch 6 --workers 2 \
  --data "$WORK/j/train" --op-log "$WORK/train.tsv.zst"
expect_exit 0 both.out "$TB" oplog train.tsv.zst run.tsv.zst
cat both.out
check "train beside run: the same objects, whole-image GETs of the same sizes" "$PY" - both.out \
  "$(json_last_line train.out 'd["radix_metrics"]["total_images"]')" <<'PY'
import json, sys
train, run = (x["profile"] for x in json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["trainbench_oplog"])
assert train["objects"] == run["objects"] == 24, (train["objects"], run["objects"])
for k in ("GET size min", "GET size max"):
    assert train[k] == run[k], (k, train[k], run[k])
assert train["GET count"] >= int(sys.argv[2]), (train["GET count"], sys.argv[2])
assert open(sys.argv[1]).read().splitlines()[0].split()[1:] == ["train.tsv.zst", "run.tsv.zst"]
PY
done_ok
