# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): the interop tests (interop/), which read
# what trainbench writes with other tools. Each starts with
#   skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
INTEROP_DIR=$SRC/tests/interop
INTEROP_NEEDS="$PY with numpy, h5py and PIL (scripts/setup.sh installs them)"
# tests/interop/node's packages (hyparquet), for the Parquet readers:
#   skip_unless interop_has_node "$INTEROP_NODE_NEEDS"
INTEROP_NODE_DIR=$INTEROP_DIR/node
INTEROP_NODE_NEEDS="node and tests/interop/node's packages (scripts/setup.sh runs npm ci there)"
interop_has_node() { command -v node && [ -d "$INTEROP_NODE_DIR/node_modules/hyparquet-compressors" ]; }

# interop_datagen FOLDER OVERRIDES...: a three-file unet3d-shaped dataset, checked by --verify.
interop_datagen() {
  local folder="$1"
  shift
  "$TRAINBENCH" datagen unet3d_h100 dataset.num_files_train=3 dataset.record_length_bytes=100000 \
    dataset.record_length_bytes_stdev=20000 dataset.data_folder="$folder" --no-progress \
    --no-warnings --verify "$@"
}

# interop_read_dataset FOLDER FORMAT [ARGS...]: the Python reader's checks (read_dataset.py).
interop_read_dataset() { "$PY" "$INTEROP_DIR/read_dataset.py" "$@"; }

# interop_dlio_both_ways FORMAT [SUBFOLDERS]: DLIO reads what trainbench writes, and trainbench
# reads what DLIO writes (dlio_layout.py emulates DLIO's generator and reader for FORMAT, of
# both the release requirements.txt pins, 2.0.0, and upstream's main: trainbench's files must
# read with both readers, and both generators' files with trainbench).
# Four files of ten samples, 10000-byte records (DLIO's side 100), as one DLIO workload
# config sees it: a batch of ten on one accelerator, so an image dataset counted one sample
# per file (four) would not fill a step.
interop_dlio_both_ways() {
  local format=$1 subfolders=${2:-0} version
  local settings=(dataset.format="$format" dataset.num_files_train=4 dataset.num_samples_per_file=10
    dataset.num_subfolders_train="$subfolders"
    dataset.record_length_bytes=10000 dataset.record_length_bytes_stdev=0 reader.batch_size=10
    train.computation_time=0 train.epochs=2 workflow.evaluation=false "output.folder=$WORK/out")
  "$TRAINBENCH" datagen resnet50_h100 "${settings[@]}" dataset.data_folder="$WORK/ours_$format$subfolders" \
    --no-progress --no-warnings >"$WORK/log" 2>&1 || fail "datagen $format: $(cat "$WORK/log")"
  check "DLIO 2.0.0 and upstream read trainbench's $format" \
    "$PY" "$INTEROP_DIR/dlio_layout.py" read "$WORK/ours_$format$subfolders" "$format" 4 10 10000 "$subfolders"
  for version in 2.0.0 upstream; do
    local theirs=$WORK/theirs_$format${subfolders}_$version want got
    want=$("$PY" "$INTEROP_DIR/dlio_layout.py" write "$theirs" "$format" 4 10 10000 "$subfolders" "$version") ||
      fail "writing DLIO $version's $format layout: $want"
    "$TRAINBENCH" run resnet50_h100 "${settings[@]}" dataset.data_folder="$theirs" \
      --accelerators 1 --no-warnings >"$WORK/out.txt" 2>"$WORK/log" ||
      fail "trainbench run over DLIO $version's $format: $(cat "$WORK/log")"
    # Every sample of DLIO's layout once an epoch: its bytes, at the samples' extents.
    got=$(tail -n 1 "$WORK/out.txt" | "$PY" -c \
      'import json,sys; m=json.load(sys.stdin)["trainbench_metrics"]; print(m["requested_bytes"], m["epochs"], m["complete"])')
    check "trainbench reads DLIO $version's $format: requested bytes, epochs ($got, want $((2 * want)) 2 True)" \
      test "$got" = "$((2 * want)) 2 True"
  done
  echo "OK: $format both ways"
}

# DLIO itself, from PyPI (dlio-benchmark 2.0.0 in $PYPI_PY's environment, requirements.txt), on
# its tensorflow framework and data loader (no DALI, no torch), or its pytorch ones with
# INTEROP_DLIO_FRAMEWORK=pytorch. A test starts with
#   skip_unless_pypi dlio_benchmark tensorflow
INTEROP_DLIO_FRAMEWORK=tensorflow
# interop_dlio RANKS OUT KEY=VALUE...: DLIO's dlio_benchmark entry point with its default
# workload and the KEY=VALUEs under workload. (hydra overrides), results and its log in OUT;
# RANKS > 1: under mpirun (mpi.sh). DLIO's TFRecord generator runs DALI's tfrecord2idx, which
# tests/interop/bin stands in for.
interop_dlio() {
  local ranks=$1 out=$2 kv args=()
  shift 2
  for kv in "$@"; do args+=("++workload.$kv"); done
  local cmd=("$(dirname "$PYPI_PY")/dlio_benchmark" workload=default
    "++workload.framework=$INTEROP_DLIO_FRAMEWORK" "++workload.reader.data_loader=$INTEROP_DLIO_FRAMEWORK"
    "${args[@]}" "++workload.output.folder=$out"
    "hydra.run.dir=$out")
  mkdir -p "$out"
  if [ "$ranks" -gt 1 ]; then
    cmd=(mpi_launch 240 -np "$ranks" -x PATH -x TF_CPP_MIN_LOG_LEVEL "${cmd[@]}")
  fi
  PATH="$INTEROP_DIR/bin:$PATH" TF_CPP_MIN_LOG_LEVEL=2 "${cmd[@]}" >"$out/stdout.txt" 2>&1
}

# interop_dlio_samples OUT BATCH: the samples DLIO's ranks trained on in each epoch, summed
# over the ranks ("40 40"): steps each rank took (its <rank>_output.json) times the batch.
interop_dlio_samples() {
  "$PYPI_PY" - "$1" "$2" <<'PY'
import glob, json, sys
epochs = {}
for path in glob.glob(f"{sys.argv[1]}/*_output.json"):
    for key, value in json.load(open(path)).items():
        if key.isdigit():
            steps = sum(len(v) for v in value["proc"].values())
            epochs[int(key)] = epochs.get(int(key), 0) + steps * int(sys.argv[2])
print(" ".join(str(epochs[e]) for e in sorted(epochs)))
PY
}

# The shape of the datasets both sides train over: 4 files x 10 samples of 10000 bytes, a
# batch of 10, 2 epochs: 40 samples an epoch, all ranks together; train/ in
# INTEROP_DLIO_SUBFOLDERS subfolders (0: none), set before the first call.
INTEROP_DLIO_SUBFOLDERS=0
interop_dlio_shape() {
  INTEROP_DLIO_SHAPE=(dataset.num_files_train=4 dataset.num_files_eval=0 dataset.num_samples_per_file=10
    dataset.num_subfolders_train="$INTEROP_DLIO_SUBFOLDERS" dataset.num_subfolders_eval=0
    reader.batch_size=10 train.epochs=2 train.computation_time=0 workflow.evaluation=false)
}
# DLIO 2.0 names the sample size record_length (later versions record_length_bytes).
INTEROP_DLIO_SIZE=(dataset.record_length=10000 dataset.record_length_stdev=0)
INTEROP_TB_SIZE=(dataset.record_length_bytes=10000 dataset.record_length_bytes_stdev=0)

# interop_dlio_reads_ours FORMAT RANKS: datagen writes FORMAT, DLIO trains over it on RANKS
# ranks; its output is in $WORK/dlio_reads_FORMAT. Returns DLIO's exit status.
interop_dlio_reads_ours() {
  local format=$1 ranks=$2
  interop_dlio_shape
  "$TRAINBENCH" datagen resnet50_h100 dataset.format="$format" "${INTEROP_DLIO_SHAPE[@]}" \
    "${INTEROP_TB_SIZE[@]}" dataset.data_folder="$WORK/ours_$format" --no-progress --no-warnings \
    >"$WORK/log" 2>&1 || fail "datagen $format: $(cat "$WORK/log")"
  interop_dlio "$ranks" "$WORK/dlio_reads_$format" dataset.format="$format" "${INTEROP_DLIO_SHAPE[@]}" \
    "${INTEROP_DLIO_SIZE[@]}" dataset.data_folder="$WORK/ours_$format" workflow.generate_data=False \
    workflow.train=True
}

# interop_run_reads_dlio FORMAT RANKS: DLIO's generator writes FORMAT on RANKS ranks, and
# trainbench's run (on as many ranks) trains over it with the same sample counts, requesting
# every sample's bytes once an epoch, as dlio_layout.py's `bytes` finds them in DLIO's files
# (csv: every byte of the file, header line included, as pandas reads it). (DLIO's HDF5
# generator fills a buffer of generation_buffer_size, 2 GiB unless told: a few samples here.)
interop_run_reads_dlio() {
  local format=$1 ranks=$2 theirs=$WORK/theirs_$1
  interop_dlio_shape
  interop_dlio "$ranks" "$WORK/dlio_writes_$format" dataset.format="$format" "${INTEROP_DLIO_SHAPE[@]}" \
    "${INTEROP_DLIO_SIZE[@]}" dataset.data_folder="$theirs" dataset.generation_buffer_size=100000 \
    workflow.generate_data=True workflow.train=False ||
    fail "DLIO's generator, $format: $(tail -n 30 "$WORK/dlio_writes_$format/stdout.txt")"
  local run=("$TRAINBENCH" run resnet50_h100 dataset.format="$format" "${INTEROP_DLIO_SHAPE[@]}"
    "${INTEROP_TB_SIZE[@]}" dataset.data_folder="$theirs" "output.folder=$WORK/out_$format"
    --accelerators 1 --no-warnings)
  [ "$ranks" -gt 1 ] && run=(mpi_launch 120 -np "$ranks" "${run[@]}")
  "${run[@]}" >"$WORK/run.txt" 2>"$WORK/log" || fail "trainbench run over DLIO's $format: $(cat "$WORK/log")"
  local got want
  got=$(tail -n 1 "$WORK/run.txt" | "$PYPI_PY" -c '
import json, os, sys
line = json.load(sys.stdin)
s = json.load(open(os.path.join(line["trainbench"]["results"], "summary.json")))
print(line["trainbench_metrics"]["epochs"], line["trainbench_metrics"]["complete"],
      " ".join(str(p["samples"]) for p in s["phases"]), line["trainbench_metrics"]["requested_bytes"])')
  want=$("$PYPI_PY" "$INTEROP_DIR/dlio_layout.py" bytes "$theirs" "$format" 4 10 10000 \
    "$INTEROP_DLIO_SUBFOLDERS") || fail "DLIO's $format: $want"
  check "trainbench trains over DLIO's $format: epochs, complete, samples an epoch, requested bytes ($got, want 2 True 40 40 $((2 * want)))" \
    test "$got" = "2 True 40 40 $((2 * want))"
}

# interop_run_scans_ours FORMAT: trainbench's run over datagen's FORMAT dataset of
# interop_dlio_reads_ours with its manifest set aside, so that run finds the samples by
# scanning the files as it does DLIO's: 40 samples an epoch, each sample's bytes once.
interop_run_scans_ours() {
  local format=$1 scanned=$WORK/ours_${1}_scanned got want
  interop_dlio_shape
  cp -r "$WORK/ours_$format" "$scanned"
  rm "$scanned/trainbench_manifest.json"
  "$TRAINBENCH" run resnet50_h100 dataset.format="$format" "${INTEROP_DLIO_SHAPE[@]}" "${INTEROP_TB_SIZE[@]}" \
    dataset.data_folder="$scanned" "output.folder=$WORK/out_scanned_$format" --accelerators 1 \
    --no-warnings >"$WORK/run.txt" 2>"$WORK/log" || fail "trainbench run over datagen's $format, scanned: $(cat "$WORK/log")"
  got=$(tail -n 1 "$WORK/run.txt" | "$PYPI_PY" -c '
import json, os, sys
line = json.load(sys.stdin)
s = json.load(open(os.path.join(line["trainbench"]["results"], "summary.json")))
print(" ".join(str(p["samples"]) for p in s["phases"]), line["trainbench_metrics"]["requested_bytes"])')
  want=$("$PYPI_PY" "$INTEROP_DIR/dlio_layout.py" bytes "$scanned" "$format" 4 10 10000 \
    "$INTEROP_DLIO_SUBFOLDERS") || fail "datagen's $format: $want"
  check "trainbench scans datagen's $format: samples an epoch, requested bytes ($got, want 40 40 $((2 * want)))" \
    test "$got" = "40 40 $((2 * want))"
}

# interop_dlio_pypi FORMAT [RANKS]: DLIO from PyPI trains over datagen's FORMAT dataset, and
# `run` over the one DLIO's generator wrote, 40 samples an epoch each. RANKS (default 1):
# DLIO's ranks, and run's, under mpirun.
interop_dlio_pypi() {
  local format=$1 ranks=${2:-1}
  interop_dlio_reads_ours "$format" "$ranks" ||
    fail "DLIO over datagen's $format: $(tail -n 30 "$WORK/dlio_reads_$format/stdout.txt")"
  check "DLIO trains over datagen's $format, 40 samples an epoch over $ranks rank(s)" \
    test "$(interop_dlio_samples "$WORK/dlio_reads_$format" 10)" = "40 40"
  interop_run_reads_dlio "$format" "$ranks"
  echo "OK: DLIO $format both ways over $ranks rank(s)"
}

# interop_parquet_files FOLDER CODEC GROUP_ROWS ROWS COLUMNS SPLIT:COUNT...: sets the array
# parquet_files to what the Parquet readers (read_parquet.mjs, parquet_pyarrow.py check) take:
# for each file of each split, "split:index:rows:group_rows:codec:columns" and its path.
interop_parquet_files() {
  local folder=$1 codec=$2 group=$3 rows=$4 columns=$5
  shift 5
  local split count i
  parquet_files=()
  for split_count in "$@"; do
    split=${split_count%:*} count=${split_count#*:}
    for ((i = 0; i < count; i++)); do
      parquet_files+=("$split:$i:$rows:$group:$codec:$columns"
        "$folder/$([ "$split" = train ] && echo train || echo valid)/img_${i}_of_${count}.parquet")
    done
  done
}
