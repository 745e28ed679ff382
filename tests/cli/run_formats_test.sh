#!/usr/bin/env bash
# `run` reads every format `datagen` writes, and asks for exactly the dataset's sample
# bytes once per epoch (the whole file where samples have no fixed place: deflated npz).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
for spec in tfrecord npz npy hdf5 jpeg png csv indexed_binary mmap_indexed_binary npz:gzip hdf5:gzip; do
  format=${spec%%:*}
  args=("dataset.format=$format" dataset.num_files_train=4 dataset.num_samples_per_file=10
    dataset.record_length_bytes=20000 "dataset.data_folder=$WORK/$spec" "output.folder=$WORK/out")
  [ "$spec" != "${spec#*:}" ] && args+=(dataset.compression=gzip)
  [ "$spec" = hdf5:gzip ] && args+=(dataset.enable_chunking=true dataset.chunk_size=40000)
  "$TB" datagen resnet50_h100 "${args[@]}" --no-progress --no-warnings >/dev/null 2>err.txt ||
    fail "datagen $spec: $(cat err.txt)"
  "$TB" run resnet50_h100 "${args[@]}" reader.batch_size=2 train.computation_time=0 train.epochs=2 \
    --accelerators 2 --no-warnings >out.txt 2>err.txt || fail "run $spec: $(cat err.txt)"
  last_line_json out.txt line.json
  python3 - line.json "$WORK/$spec/trainbench_manifest.json" "$spec" <<'PY' || fail "bytes for $spec"
import json, sys
m = json.load(open(sys.argv[1]))["trainbench_metrics"]
files = json.load(open(sys.argv[2]))["files"]
assert m["complete"] and m["epochs"] == 2, m
if all("sample_lengths" in f for f in files) and sys.argv[3] != "hdf5:gzip":
    want = sum(sum(f["sample_lengths"]) for f in files)
else:  # no fixed extents: whole files (npz) or libhdf5's decompressed samples (hdf5),
    # each 141 x 141 (DLIO's side for 20000 bytes, floor(sqrt))
    want = sum(f["size_bytes"] for f in files) if sys.argv[3] == "npz:gzip" else 4 * 10 * 141 * 141
assert m["requested_bytes"] == 2 * want, (sys.argv[3], m["requested_bytes"], want)
PY
done
echo "PASS: run_formats_test.sh"
