#!/usr/bin/env bash
# `run` still reads datasets of older trainbench versions (no manifest: scanned): names
# ending .jpg and .bin (now .jpeg and .indexed_binary, as DLIO names them) and csv files
# with pandas' ",0,1,..." header line, which is not a sample but is read with the first
# (pandas reads it with the rows).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
base=(dataset.num_files_train=2 dataset.num_samples_per_file=4 dataset.record_length_bytes=2500
  reader.batch_size=2 train.computation_time=0 train.epochs=1 "output.folder=$WORK/out")
for spec in jpeg:jpg indexed_binary:bin; do
  format=${spec%%:*} old=${spec#*:}
  args=("${base[@]}" dataset.format="$format" "dataset.data_folder=$WORK/$format")
  "$TB" datagen resnet50_h100 "${args[@]}" --no-progress --no-warnings >/dev/null 2>err.txt ||
    fail "datagen $format: $(cat err.txt)"
  rm "$WORK/$format/trainbench_manifest.json"
  for f in "$WORK/$format"/train/*; do mv "$f" "${f/.$format/.$old}"; done
  ls "$WORK/$format/train" >names.txt
  check "$format renamed to .$old: $(cat names.txt | tr '\n' ' ')" test "$(grep -c "\.$format" names.txt)" = 0
  "$TB" run resnet50_h100 "${args[@]}" --no-warnings >out.txt 2>err.txt ||
    fail "run over .$old files: $(cat err.txt)"
  check "all 8 .$old samples read" \
    test "$(json "$(results_dir)/summary.json" 'sum(p["samples"] for p in d["phases"] if p["kind"] == "train")')" = 8
  rm -rf "$WORK/out"
done
# An older csv: header line, then "index,values" rows.
mkdir -p "$WORK/csv/train"
for i in 0 1; do
  { echo ",0,1,2"; for r in 0 1 2 3; do echo "$r,1,2,3"; done; } >"$WORK/csv/train/img_${i}_of_2.csv"
done
"$TB" run resnet50_h100 "${base[@]}" dataset.format=csv "dataset.data_folder=$WORK/csv" \
  --no-warnings >out.txt 2>err.txt || fail "run over older csv: $(cat err.txt)"
last_line_json out.txt line.json
# 8 rows of 8 bytes and, with each file's first row, its 7-byte header line.
check "older csv: the rows and the header lines, 8 samples ($(cat line.json))" \
  test "$(json line.json 'd["trainbench_metrics"]["requested_bytes"]')" = 78
check "older csv: 8 samples, not the header" \
  test "$(json "$(results_dir)/summary.json" 'sum(p["samples"] for p in d["phases"] if p["kind"] == "train")')" = 8
echo OK
