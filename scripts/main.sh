#!/usr/bin/env bash
# The README's main job: set up, build, and generate the ResNet-50 (resnet50_h100)
# dataset scaled down to a few GB in a local folder.
# Usage: scripts/main.sh [DATA_DIR] (default: ./data/resnet50_h100)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
data_dir=${1:-$PWD/data/resnet50_h100}
files=${TRAINBENCH_MAIN_FILES:-32}  # 32 files x 1251 samples x 114.7 KB = 4.6 GB
./build/trainbench datagen resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data_dir" --verify
