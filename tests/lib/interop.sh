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
# reads what DLIO writes (dlio_layout.py emulates DLIO's generator and reader for FORMAT).
# Four files of ten samples, 10000-byte records (DLIO's side 100), as one DLIO workload
# config sees it: a batch of ten on one accelerator, so an image dataset counted one sample
# per file (four) would not fill a step.
interop_dlio_both_ways() {
  local format=$1 subfolders=${2:-0}
  local settings=(dataset.format="$format" dataset.num_files_train=4 dataset.num_samples_per_file=10
    dataset.num_subfolders_train="$subfolders"
    dataset.record_length_bytes=10000 dataset.record_length_bytes_stdev=0 reader.batch_size=10
    train.computation_time=0 train.epochs=2 workflow.evaluation=false "output.folder=$WORK/out")
  "$TRAINBENCH" datagen resnet50_h100 "${settings[@]}" dataset.data_folder="$WORK/ours_$format$subfolders" \
    --no-progress --no-warnings >"$WORK/log" 2>&1 || fail "datagen $format: $(cat "$WORK/log")"
  check "DLIO reads trainbench's $format" "$PY" "$INTEROP_DIR/dlio_layout.py" read "$WORK/ours_$format$subfolders" "$format" 4 10 10000 "$subfolders"
  local want
  want=$("$PY" "$INTEROP_DIR/dlio_layout.py" write "$WORK/theirs_$format$subfolders" "$format" 4 10 10000 "$subfolders") ||
    fail "writing DLIO's $format layout: $want"
  "$TRAINBENCH" run resnet50_h100 "${settings[@]}" dataset.data_folder="$WORK/theirs_$format$subfolders" \
    --accelerators 1 --no-warnings >"$WORK/out.txt" 2>"$WORK/log" ||
    fail "trainbench run over DLIO's $format: $(cat "$WORK/log")"
  # Every sample of DLIO's layout once an epoch: its bytes, at the samples' extents.
  local got
  got=$(tail -n 1 "$WORK/out.txt" | "$PY" -c \
    'import json,sys; m=json.load(sys.stdin)["trainbench_metrics"]; print(m["requested_bytes"], m["epochs"], m["complete"])')
  check "trainbench reads DLIO's $format: requested bytes, epochs ($got, want $((2 * want)) 2 True)" \
    test "$got" = "$((2 * want)) 2 True"
  echo "OK: $format both ways"
}
