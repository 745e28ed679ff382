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
