#!/usr/bin/env bash
# Parquet files from datagen read by an independent reader: hyparquet (pure JS, from npm:
# tests/interop/node) decodes every file of a dlrm-like dataset (dlrm_b200's three float32
# columns, row groups of 256) in each codec trainbench writes, and of a flux-like one
# (flux_b200's five columns, 2 MB rows: one value a page), and read_parquet.mjs checks row
# counts, row groups, the schema, the codec, each file's seed against the plan's and every
# value against the generation rule, recomputed in JS. Then `run` reads the row groups'
# bytes x epochs, from the manifest and by scanning footers; and the config keys load.
source "$(dirname "$0")/../lib/common.sh"
skip_unless interop_has_node "$INTEROP_NODE_NEEDS"

dlrm_columns="label:float32:1,numerical_features:float32:13,categorical_features:float32:26"
cat >"$WORK/dlrm.yaml" <<'YAML'
model: {name: dlrm}
framework: pytorch
workflow: {generate_data: false, train: true}
dataset:
  format: parquet
  num_files_train: 3
  num_files_eval: 1
  num_samples_per_file: 1000
  record_length_bytes: 160
  compression: none
  parquet:
    row_group_size: 256
    read_mode: row_group
    columns:
      - name: label
        dtype: float32
        size: 1
      - {name: numerical_features, dtype: float32, size: 13}
      - {name: categorical_features, dtype: float32, size: 26, read: true}
reader: {batch_size: 250, read_threads: 2}
train: {epochs: 2, computation_time: 0}
YAML
flux_columns="t5_encodings:float32:524328,clip_encodings:float32:409,mean:float32:8232,logvar:float32:8232,timestamp:float32:7"
cat >"$WORK/flux.yaml" <<'YAML'
model: {name: flux}
dataset:
  format: parquet
  num_files_train: 2
  num_samples_per_file: 3
  record_length: 2164832
  parquet:
    columns:
      - {name: t5_encodings, dtype: float32, size: 524328}
      - {name: clip_encodings, dtype: float32, size: 409}
      - {name: mean, dtype: float32, size: 8232}
      - {name: logvar, dtype: float32, size: 8232}
      - {name: timestamp, dtype: float32, size: 7}
YAML

# The keys load and print back (nested three deep), and bad ones name themselves.
expect_exit 0 "$WORK/config" "$TRAINBENCH" config "$WORK/dlrm.yaml"
contains "$WORK/config" "row_group_size: 256"
contains "$WORK/config" "name: categorical_features"
contains "$WORK/config" "read_mode: row_group"
expect_exit 2 "$WORK/err" "$TRAINBENCH" datagen "$WORK/dlrm.yaml" dataset.data_folder="$WORK/x" \
  dataset.compression=xz
contains "$WORK/err" "dataset.compression xz is not a Parquet codec"
expect_exit 2 "$WORK/err" "$TRAINBENCH" datagen "$WORK/dlrm.yaml" dataset.data_folder="$WORK/x" \
  'dataset.parquet.columns=[{name: s, dtype: string}]'
contains "$WORK/err" "dataset.parquet.columns: column 0 ('s') has dtype 'string'"
expect_exit 2 "$WORK/err" "$TRAINBENCH" config "$WORK/dlrm.yaml" 'dataset.parquet.columns=[{nme: a}]'
contains "$WORK/err" "dataset.parquet.columns: expected a list of {name, dtype, size, read}"

# read_all YAML FOLDER CODEC GROUP_ROWS ROWS COLUMNS SPLIT:COUNT...: hyparquet reads each file.
read_all() {
  interop_parquet_files "${@:2}"
  node "$INTEROP_NODE_DIR/read_parquet.mjs" 123 "${parquet_files[@]}" >>"$WORK/read.txt" 2>"$WORK/read.err" ||
    fail "hyparquet over $2: $(cat "$WORK/read.err")"
  checks=$((checks + 1))
}

for codec in none snappy gzip lz4 zstd; do
  d=$WORK/dlrm_$codec
  expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/dlrm.yaml" dataset.data_folder="$d" \
    dataset.compression=$codec --verify --no-progress
  parquet_codec=$(echo $codec | tr a-z A-Z | sed 's/NONE/UNCOMPRESSED/; s/LZ4/LZ4_RAW/')
  read_all "$WORK/dlrm.yaml" "$d" "$parquet_codec" 256 1000 "$dlrm_columns" train:3 valid:1
done
check "dlrm: 4 row groups in each of 20 files" test "$(grep -c 'rows=1000 groups=4 ' "$WORK/read.txt")" = 20
# The values do not depend on the codec: one checksum per file index across the five.
check "dlrm: same values in every codec" test \
  "$(awk '/dlrm_/ {sub(/.*dlrm_[a-z0-9]*\//, "", $1); print $1, $NF}' "$WORK/read.txt" | sort -u | wc -l)" = 4

f=$WORK/flux
expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/flux.yaml" dataset.data_folder="$f" \
  --verify --no-progress
read_all "$WORK/flux.yaml" "$f" UNCOMPRESSED 3 3 "$flux_columns" train:2
expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/flux.yaml" dataset.data_folder="$f"_zstd \
  dataset.compression=zstd --verify --no-progress
read_all "$WORK/flux.yaml" "$f"_zstd ZSTD 3 3 "$flux_columns" train:2
check "flux: four files" test "$(grep -c 'rows=3 groups=1 ' "$WORK/read.txt")" = 4

# run reads each train file's row groups (all but "PAR1" and the footer) x epochs, each
# once (rows in order): from the manifest, and with the manifest gone, by scanning the
# footers (files shuffled). Selective reads: parquet_reads_test.sh.
payload() {
  "$PY" - "$1"/train/*.parquet <<'PY'
import struct, sys
total = 0
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    assert data[:4] == b"PAR1" and data[-4:] == b"PAR1", path
    total += len(data) - 12 - struct.unpack("<I", data[-8:-4])[0]
print(total)
PY
}
run_bytes() {  # run_bytes FOLDER ARGS...: requested and read bytes, epochs, complete
  local folder=$1
  shift
  "$TRAINBENCH" run "$WORK/dlrm.yaml" dataset.data_folder="$folder" output.folder="$WORK/out" \
    --accelerators 1 --no-warnings "$@" >"$WORK/run.txt" 2>"$WORK/run.err" ||
    fail "run over $folder: $(cat "$WORK/run.err")"
  tail -n 1 "$WORK/run.txt" | "$PY" -c 'import json, sys
m = json.load(sys.stdin)["trainbench_metrics"]
print(m["requested_bytes"], m["bytes_read"], m["epochs"], m["complete"])'
}
for codec in none zstd; do
  d=$WORK/dlrm_$codec
  want="$((2 * $(payload "$d"))) $((2 * $(payload "$d"))) 2 True"
  got=$(run_bytes "$d" dataset.compression=$codec)
  check "run over $codec reads the row groups x 2 ($got, want $want)" test "$got" = "$want"
  rm "$d/trainbench_manifest.json"
  got=$(run_bytes "$d" dataset.compression=$codec reader.file_shuffle=seed)
  check "run over scanned $codec files ($got, want $want)" test "$got" = "$want"
done
done_ok
