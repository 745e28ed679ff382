# Sourced by the interop tests: checks the tools are there (exit 77 = skip), makes a
# scratch folder removed on exit, and offers `datagen` with the small-dataset settings.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
if ! "$PY" -c 'import numpy, h5py, PIL' 2>/dev/null; then
  echo "skip: $PY with numpy, h5py and PIL is needed (scripts/setup.sh installs them)"
  exit 77
fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TMP=$WORK

# datagen FOLDER OVERRIDES...: a three-file unet3d-shaped dataset, checked by --verify.
datagen() {
  local folder="$1"
  shift
  "$TRAINBENCH" datagen unet3d_h100 dataset.num_files_train=3 dataset.record_length_bytes=100000 \
    dataset.record_length_bytes_stdev=20000 dataset.data_folder="$folder" --no-progress \
    --no-warnings --verify "$@"
}

# read_dataset FOLDER FORMAT [ARGS...]: the Python reader's checks (read_dataset.py).
read_dataset() { "$PY" "$HERE/read_dataset.py" "$@"; }

# dlio_both_ways FORMAT [SUBFOLDERS]: DLIO reads what trainbench writes, and trainbench
# reads what DLIO writes (dlio_layout.py emulates DLIO's generator and reader for FORMAT).
# Four files of ten samples, 10000-byte records (DLIO's side 100), as one DLIO workload
# config sees it: a batch of ten on one accelerator, so an image dataset counted one sample
# per file (four) would not fill a step.
dlio_both_ways() {
  local format=$1 subfolders=${2:-0}
  local settings=(dataset.format="$format" dataset.num_files_train=4 dataset.num_samples_per_file=10
    dataset.num_subfolders_train="$subfolders"
    dataset.record_length_bytes=10000 dataset.record_length_bytes_stdev=0 reader.batch_size=10
    train.computation_time=0 train.epochs=2 workflow.evaluation=false "output.folder=$TMP/out")
  "$TRAINBENCH" datagen resnet50_h100 "${settings[@]}" dataset.data_folder="$TMP/ours_$format$subfolders" \
    --no-progress --no-warnings >"$TMP/log" 2>&1 || fail "datagen $format: $(cat "$TMP/log")"
  check "DLIO reads trainbench's $format" "$PY" "$HERE/dlio_layout.py" read "$TMP/ours_$format$subfolders" "$format" 4 10 10000 "$subfolders"
  local want
  want=$("$PY" "$HERE/dlio_layout.py" write "$TMP/theirs_$format$subfolders" "$format" 4 10 10000 "$subfolders") ||
    fail "writing DLIO's $format layout: $want"
  "$TRAINBENCH" run resnet50_h100 "${settings[@]}" dataset.data_folder="$TMP/theirs_$format$subfolders" \
    --accelerators 1 --no-warnings >"$TMP/out.txt" 2>"$TMP/log" ||
    fail "trainbench run over DLIO's $format: $(cat "$TMP/log")"
  # Every sample of DLIO's layout once an epoch: its bytes, at the samples' extents.
  local got
  got=$(tail -n 1 "$TMP/out.txt" | "$PY" -c \
    'import json,sys; m=json.load(sys.stdin)["trainbench_metrics"]; print(m["requested_bytes"], m["epochs"], m["complete"])')
  check "trainbench reads DLIO's $format: requested bytes, epochs ($got, want $((2 * want)) 2 True)" \
    test "$got" = "$((2 * want)) 2 True"
  echo "OK: $format both ways"
}
