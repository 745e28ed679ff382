#!/usr/bin/env bash
# What `run` reads of Parquet files, checked against an independent reader's view of the
# same files: hyparquet (tests/interop/node/column_chunks.mjs) decodes each file's footer
# and sums the compressed sizes of the column chunks a DLIO-style reader reads (whole row
# groups, only the columns marked read). A run over a scaled-down dlrm-like dataset (three
# columns, categorical_features read: false, small row groups) must read exactly those
# bytes x epochs, in exactly that many transfer_size pieces (one read per chunk when it
# fits), as summary.json's Darshan-style counters and the metrics line show; uncompressed
# and zstd, from the manifest and from the footers (no manifest), with two accelerators
# reading at once. And a run with other Parquet settings than the dataset's is refused.
source "$(dirname "$0")/../lib/common.sh"
skip_unless interop_has_node "$INTEROP_NODE_NEEDS"

# dlrm_b200's columns and batches of 50 rows, as overrides of a bare workload.
echo 'model: {name: dlrm}' >"$WORK/dlrm.yaml"
columns='{name: label, dtype: float32, size: 1}, {name: numerical_features, dtype: float32, size: 13}'
settings=(dataset.format=parquet dataset.num_files_train=3 dataset.num_samples_per_file=1000
  dataset.record_length_bytes=160 dataset.parquet.row_group_size=100
  dataset.parquet.read_mode=row_group reader.batch_size=50 reader.read_threads=2
  reader.transfer_size=1024 train.epochs=2 train.computation_time=0
  "dataset.parquet.columns=[$columns, {name: categorical_features, dtype: float32, size: 26, read: false}]")
all_columns="dataset.parquet.columns=[$columns, {name: categorical_features, dtype: float32, size: 26}]"
epochs=2
transfer=1024

# run_io FOLDER ACCELERATORS ARGS...: "requested read reads max_read_size" from summary.json.
run_io() {
  local folder=$1 accelerators=$2
  shift 2
  rm -rf "$WORK/out"
  "$TRAINBENCH" run "$WORK/dlrm.yaml" "${settings[@]}" dataset.data_folder="$folder" \
    output.folder="$WORK/out" --accelerators "$accelerators" --no-warnings "$@" >"$WORK/run.txt" 2>"$WORK/run.err" ||
    fail "run over $folder: $(cat "$WORK/run.err")"
  "$PY" - "$WORK"/out/*/summary.json "$WORK/run.txt" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
m = json.loads(open(sys.argv[2]).read().splitlines()[-1])["trainbench_metrics"]
io = s["io_characterization"]
assert m["bytes_read"] == io["POSIX_BYTES_READ"], (m["bytes_read"], io)
assert sum(io["access_sizes"].values()) == io["POSIX_READS"], io
print(m["requested_bytes"], io["POSIX_BYTES_READ"], io["POSIX_READS"],
      io["POSIX_MAX_BYTE_READ_SIZE"])
PY
}
# expected FOLDER COLUMNS: "requested read reads max_read_size" by hyparquet's count.
expected() {
  local line bytes pieces
  line=$(node "$INTEROP_NODE_DIR/column_chunks.mjs" $transfer "$2" "$1"/train/*.parquet) ||
    fail "hyparquet over $1"
  bytes=$(echo "$line" | sed 's/.* bytes=\([0-9]*\).*/\1/')
  pieces=$(echo "$line" | sed 's/.* pieces=\([0-9]*\).*/\1/')
  echo "$line" >>"$WORK/chunks.txt"
  echo "$((bytes * epochs)) $((bytes * epochs)) $((pieces * epochs)) $transfer"
}

for codec in none zstd; do
  d=$WORK/dlrm_$codec
  expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/dlrm.yaml" "${settings[@]}" \
    dataset.data_folder="$d" dataset.compression=$codec --no-progress
  want=$(expected "$d" label,numerical_features)
  got=$(run_io "$d" 1 dataset.compression=$codec)
  check "$codec: reads label and numerical_features of 30 row groups x 2 ($got, want $want)" \
    test "$got" = "$want"
  # Two accelerators, each with 1500 rows (whole row groups), read at once.
  got=$(run_io "$d" 2 dataset.compression=$codec)
  check "$codec, 2 accelerators ($got, want $want)" test "$got" = "$want"
  # Every column marked read: every chunk (the row groups' whole bytes).
  want_all=$(expected "$d" label,numerical_features,categorical_features)
  got=$(run_io "$d" 1 dataset.compression=$codec "$all_columns")
  check "$codec, all columns ($got, want $want_all)" test "$got" = "$want_all"
  # Without the manifest: the row groups come from each file's footer.
  rm "$d/trainbench_manifest.json"
  got=$(run_io "$d" 1 dataset.compression=$codec reader.file_shuffle=seed)
  check "$codec, scanned footers, files shuffled ($got, want $want)" test "$got" = "$want"
done
# 30 row groups in each dataset; 2 chunks of each read, or all 3.
check "30 row groups, 2 of 3 chunks read" test "$(grep -c '^groups=30 chunks=60 ' "$WORK/chunks.txt")" = 2
check "30 row groups, 3 of 3 chunks read" test "$(grep -c '^groups=30 chunks=90 ' "$WORK/chunks.txt")" = 2
# zstd's chunks are smaller than the uncompressed ones (the values are random floats in
# [0, 1): their high bytes repeat).
none_bytes=$(sed -n 1p "$WORK/chunks.txt" | sed 's/.* bytes=\([0-9]*\).*/\1/')
zstd_bytes=$(sed -n 3p "$WORK/chunks.txt" | sed 's/.* bytes=\([0-9]*\).*/\1/')
check "zstd chunks ($zstd_bytes B) smaller than uncompressed ($none_bytes B)" \
  test "$zstd_bytes" -lt "$none_bytes"

# Another row-group size, columns or codec than the dataset's: the usual refusal.
d=$WORK/dlrm_keyed
expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/dlrm.yaml" "${settings[@]}" \
  dataset.data_folder="$d" --no-progress
expect_exit 1 "$WORK/err" "$TRAINBENCH" run "$WORK/dlrm.yaml" "${settings[@]}" \
  dataset.data_folder="$d" output.folder="$WORK/out" --accelerators 1 dataset.parquet.row_group_size=200
contains "$WORK/err" "does not match the config"
contains "$WORK/err" "parquet_row_group_size: dataset 100, config 200"
expect_exit 1 "$WORK/err" "$TRAINBENCH" run "$WORK/dlrm.yaml" "${settings[@]}" \
  dataset.data_folder="$d" output.folder="$WORK/out" --accelerators 1 \
  'dataset.parquet.columns=[{name: label, dtype: float32, size: 40}]'
contains "$WORK/err" 'parquet_columns: dataset "label:float32:1,numerical_features:float32:13,'
contains "$WORK/err" "--replace"
# What a run reads is not part of it: read flags and read_mode may differ.
expect_exit 0 "$WORK/run.txt" "$TRAINBENCH" run "$WORK/dlrm.yaml" "${settings[@]}" \
  dataset.data_folder="$d" output.folder="$WORK/out" --accelerators 1 dataset.parquet.read_mode=default
done_ok
