#!/usr/bin/env bash
# Configures and builds trainbench into build/ (build/trainbench). Re-runs are incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build build -j "$jobs"
