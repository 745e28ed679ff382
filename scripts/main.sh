#!/usr/bin/env bash
# The README's main job: set up, build, generate the ResNet-50 (resnet50_h100) dataset
# scaled down to a few GB in a local folder, and run emulated training over it, printing
# the AU / samples/s table and the final {"trainbench_metrics": ...} JSON line.
# Usage: scripts/main.sh [DATA_DIR] (default: ./data/resnet50_h100)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh binary
# Only the trainbench binary (not the tests, not the LibTorch plugin); its output goes to a
# log, shown when it fails, and its progress ([n/N]) to the terminal meanwhile.
mkdir -p build
echo "build: compiling build/trainbench (minutes the first time; log: build/build.log)"
if TRAINBENCH_TESTS=OFF BUILD_TARGET=trainbench bash scripts/build.sh 2>&1 | tee build/build.log |
  bash scripts/build_progress.sh; then
  echo "build: $(./build/trainbench --version) in build/ (log: build/build.log)"
else
  tail -n 40 build/build.log >&2
  echo "build failed; the whole log is build/build.log" >&2
  exit 1
fi
data_dir=${1:-$PWD/data/resnet50_h100}
files=${TRAINBENCH_MAIN_FILES:-32}  # 32 files x 1251 samples x 114.2 KB (338 x 338 images) = 4.6 GB
accelerators=${TRAINBENCH_MAIN_ACCELERATORS:-8}
./build/trainbench datagen resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data_dir" --verify
./build/trainbench run resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data_dir" \
  --accelerators "$accelerators" "output.folder=$PWD/results"
