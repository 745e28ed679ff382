#!/usr/bin/env bash
# Parquet both ways with pyarrow, the reference implementation (PyPI, $PYPI_PY), through
# parquet_pyarrow.py beside this test:
# 1. pyarrow reads every file datagen writes, in DLIO's generator's layout (a fixed-size
#    list for a column of size > 1, an OPTIONAL scalar otherwise; pyarrow's types), for
#    every dtype as a scalar and as a list (short lists' bit-packed repetition levels, long
#    ones' RLE runs), DLIO's default uint8 "data" column, each codec and several row-group
#    sizes: rows, row groups, codec, Arrow schema, seed, and every value against the rule.
# 2. `run` reads Parquet that pyarrow wrote as real DLRM datasets are (fixed-size lists,
#    dictionary encoding, snappy and zstd, data pages v1 and v2, several row groups):
#    the sample counts, and exactly the bytes of the column chunks DLIO's reader reads
#    (pyarrow's read_row_group(columns=...)), from the files' footers.
# 3. What a run does not read it refuses by name (exit 1): struct columns, column chunks
#    in other files, modular encryption (encrypted footer, or encrypted columns).
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi pyarrow numpy
helper=$SRC/tests/interop/parquet_pyarrow.py

# --- 1. datagen's files, read by pyarrow ---
dtypes=(uint8 int8 uint16 int16 uint32 int32 uint64 int64 float16 float32 float64)
columns_yaml="" columns_spec=""
for d in "${dtypes[@]}"; do  # each dtype as a scalar, a short list and (some) a long one
  for size in 1 3; do
    columns_yaml+="{name: ${d}_$size, dtype: $d, size: $size}, "
    columns_spec+="${d}_$size:$d:$size,"
  done
done
columns_yaml+="{name: long_f32, dtype: float32, size: 100}, {name: long_u8, dtype: uint8, size: 300}"
columns_spec+="long_f32:float32:100,long_u8:uint8:300"
echo 'model: {name: dlrm}' >"$WORK/all.yaml"
all=(dataset.format=parquet dataset.num_files_train=2 dataset.num_files_eval=1
  dataset.num_samples_per_file=600 dataset.record_length_bytes=160
  "dataset.parquet.columns=[$columns_yaml]")
# pyarrow's codec names for dataset.compression's (pyarrow calls LZ4_RAW, which trainbench
# writes as DLIO's `lz4` is in pyarrow, "LZ4"; the old framed LZ4 it calls LZ4_HADOOP).
declare -A parquet_codec=([none]=UNCOMPRESSED [snappy]=SNAPPY [gzip]=GZIP [lz4]=LZ4 [zstd]=ZSTD)

# read_all FOLDER CODEC GROUP_ROWS ROWS COLUMNS SPLIT:COUNT...: pyarrow checks each file.
read_all() {
  interop_parquet_files "$@"
  "$PYPI_PY" "$helper" check 123 "${parquet_files[@]}" >>"$WORK/read.txt" 2>"$WORK/read.err" ||
    fail "pyarrow over $1: $(cat "$WORK/read.err")"
  checks=$((checks + 1))
}

for codec in none snappy gzip lz4 zstd; do
  # 0: one row group a file; 600: the same, stated; 256: 256, 256, 88; 7: many, uneven.
  for group in 0 600 256 7; do
    d=$WORK/all_${codec}_$group
    expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/all.yaml" "${all[@]}" \
      dataset.data_folder="$d" dataset.compression=$codec dataset.parquet.row_group_size=$group \
      --verify --no-progress
    read_all "$d" "${parquet_codec[$codec]}" "$([ $group = 0 ] && echo 600 || echo $group)" 600 \
      "$columns_spec" train:2 valid:1
  done
done
check "every dtype: 60 files read" test "$(grep -c ' rows=600 ' "$WORK/read.txt")" = 60
check "row groups: 1, 1, 3 and 86 a file" test \
  "$(grep -c ' groups=1 ' "$WORK/read.txt") $(grep -c ' groups=3 ' "$WORK/read.txt") $(grep -c ' groups=86 ' "$WORK/read.txt")" = "30 15 15"
# The values do not depend on the codec or the row groups: one checksum per file.
check "same values in every codec and row-group size" test \
  "$(awk '{sub(/.*all_[a-z0-9]*_[0-9]*\//, "", $1); print $1, $NF}' "$WORK/read.txt" | sort -u | wc -l)" = 3

# DLIO's default: no columns, one uint8 "data" column of the sample's bytes (side x side).
d=$WORK/data
expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/all.yaml" dataset.format=parquet \
  dataset.num_files_train=2 dataset.num_samples_per_file=50 dataset.record_length_bytes=4096 \
  dataset.data_folder="$d" dataset.compression=snappy dataset.parquet.row_group_size=16 \
  --verify --no-progress
read_all "$d" SNAPPY 16 50 data:uint8:4096 train:2
# A flux-like row larger than a page: one row a page.
d=$WORK/flux
expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/all.yaml" dataset.format=parquet \
  dataset.num_files_train=1 dataset.num_samples_per_file=3 dataset.data_folder="$d" \
  'dataset.parquet.columns=[{name: t5, dtype: float32, size: 300000}, {name: ts, dtype: float32, size: 7}]' \
  dataset.compression=zstd --verify --no-progress
read_all "$d" ZSTD 3 3 t5:float32:300000,ts:float32:7 train:1
check "default data column and flux-like files" test "$(grep -c -E ' rows=(50|3) ' "$WORK/read.txt")" = 3
# A dataset of the layout before (one FIXED_LEN_BYTE_ARRAY a row; its manifest's layout
# "dlio") is not taken as complete: run and datagen name the layout, --replace rewrites it.
sed -i '1s/"layout":"dlio-lists"/"layout":"dlio"/' "$d/trainbench_manifest.json"
expect_exit 1 "$WORK/err" "$TRAINBENCH" run "$WORK/all.yaml" dataset.format=parquet \
  dataset.num_files_train=1 dataset.num_samples_per_file=3 dataset.data_folder="$d" \
  'dataset.parquet.columns=[{name: t5, dtype: float32, size: 300000}, {name: ts, dtype: float32, size: 7}]' \
  dataset.compression=zstd output.folder="$WORK/out" --accelerators 1 --no-warnings
contains "$WORK/err" 'layout: dataset "dlio", config "dlio-lists"'
expect_exit 2 "$WORK/err" "$TRAINBENCH" datagen "$WORK/all.yaml" dataset.format=parquet \
  dataset.num_files_train=1 dataset.num_samples_per_file=3 dataset.data_folder="$d" \
  'dataset.parquet.columns=[{name: t5, dtype: float32, size: 300000}, {name: ts, dtype: float32, size: 7}]' \
  dataset.compression=zstd --no-progress
contains "$WORK/err" 'layout ("dlio" there, "dlio-lists" now)'
expect_exit 0 "$WORK/datagen" "$TRAINBENCH" datagen "$WORK/all.yaml" dataset.format=parquet \
  dataset.num_files_train=1 dataset.num_samples_per_file=3 dataset.data_folder="$d" \
  'dataset.parquet.columns=[{name: t5, dtype: float32, size: 300000}, {name: ts, dtype: float32, size: 7}]' \
  dataset.compression=zstd --replace --verify --no-progress

# --- 2. pyarrow's files, read by run ---
echo 'model: {name: dlrm}' >"$WORK/dlrm.yaml"
dlrm=(dataset.format=parquet dataset.num_files_train=3 dataset.num_samples_per_file=1000
  dataset.record_length_bytes=160 dataset.parquet.read_mode=row_group reader.batch_size=50
  reader.read_threads=2 train.epochs=2 train.computation_time=0 workflow.generate_data=false
  "dataset.parquet.columns=[{name: label, dtype: float32, size: 1}, {name: numerical_features, dtype: float32, size: 13}, {name: categorical_features, dtype: int32, size: 26, read: false}]")
# run_io FOLDER ARGS...: "samples requested read" of a run, from summary.json and its last line.
run_io() {
  local folder=$1
  shift
  rm -rf "$WORK/out"
  "$TRAINBENCH" run "$WORK/dlrm.yaml" "${dlrm[@]}" dataset.data_folder="$folder" \
    output.folder="$WORK/out" --accelerators 1 --no-warnings "$@" >"$WORK/run.txt" 2>"$WORK/run.err" ||
    fail "run over $folder: $(cat "$WORK/run.err")"
  "$PY" - "$WORK"/out/*/summary.json "$WORK/run.txt" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
m = json.loads(open(sys.argv[2]).read().splitlines()[-1])["trainbench_metrics"]
assert m["complete"] and s["epochs_completed"] == s["epochs"], (m, s["epochs_completed"])
print(s["train_samples"], s["steps_per_epoch"] * s["batch_size"] * s["epochs_completed"],
      m["requested_bytes"], s["io_characterization"]["POSIX_BYTES_READ"])
PY
}
for variant in "snappy 1.0 dictionary" "zstd 2.0 dictionary" "zstd 1.0 plain" "snappy 2.0 plain"; do
  read -r codec version encoding <<<"$variant"
  d=$WORK/pyarrow_${codec}_${version}_$encoding
  # Row groups of 256 rows: 256, 256, 256, 232.
  "$PYPI_PY" "$helper" write "$d" 3 1000 256 "$codec" "$version" "$encoding" ||
    fail "pyarrow could not write $variant"
  # What DLIO's reader reads: label's and numerical_features' chunks of every row group.
  line=$("$PYPI_PY" "$helper" chunks label,numerical_features "$d"/train/*.parquet)
  bytes=$(echo "$line" | sed 's/.* bytes=\([0-9]*\).*/\1/')
  check "pyarrow $variant: 12 row groups, 24 chunks ($line)" test "${line% bytes=*}" = "groups=12 rows=3000 chunks=24"
  want="3000 6000 $((2 * bytes)) $((2 * bytes))"
  got=$(run_io "$d" dataset.compression="$codec")
  check "run over pyarrow's $variant: samples and the chunks DLIO reads x 2 ($got, want $want)" \
    test "$got" = "$want"
  echo "$variant $line" >>"$WORK/chunks.txt"
done
# Every column marked read: the row groups' every chunk.
d=$WORK/pyarrow_zstd_2.0_dictionary
line=$("$PYPI_PY" "$helper" chunks "" "$d"/train/*.parquet)
bytes=$(echo "$line" | sed 's/.* bytes=\([0-9]*\).*/\1/')
got=$(run_io "$d" dataset.compression=zstd \
  "dataset.parquet.columns=[{name: label, dtype: float32, size: 1}, {name: numerical_features, dtype: float32, size: 13}, {name: categorical_features, dtype: int32, size: 26}]")
check "run over pyarrow's files, every column ($got)" test "$got" = "3000 6000 $((2 * bytes)) $((2 * bytes))"
# Dictionary encoding made categorical_features smaller (ids of few distinct values): the
# files differ as real datasets do, and the run followed each footer.
check "dictionary chunks differ from plain ones" test \
  "$(awk '{print $NF}' "$WORK/chunks.txt" | sort -u | wc -l)" -ge 3

# --- 3. What run refuses, by name ---
refused() {  # refused KIND MESSAGE
  local d=$WORK/refused_$1 rc=0
  "$PYPI_PY" "$helper" refused "$1" "$d" 2>"$WORK/write.err" || rc=$?
  if [ $rc = 3 ]; then
    echo "note: this pyarrow cannot write $1 files; not checked" >&2
    return
  fi
  [ $rc = 0 ] || fail "pyarrow could not write a $1 file: $(cat "$WORK/write.err")"
  expect_exit 1 "$WORK/err" "$TRAINBENCH" run "$WORK/dlrm.yaml" "${dlrm[@]}" \
    dataset.num_files_train=1 dataset.num_samples_per_file=100 dataset.data_folder="$d" \
    output.folder="$WORK/out" --accelerators 1 --no-warnings
  contains "$WORK/err" "trainbench: error: "
  contains "$WORK/err" "$2: trainbench does not read this Parquet feature"
}
refused struct "column 'point' has several leaf columns (a struct or map column)"
refused file_path "a column chunk in another file (ColumnChunk.file_path 'data.bin')"
refused encrypted "an encrypted footer (PARE)"
refused plaintext_footer "encrypted columns (FileMetaData.encryption_algorithm)"
done_ok
