#!/usr/bin/env bash
# Configures and builds trainbench into build/ (build/trainbench). Re-runs are incremental.
# Environment: BUILD_TYPE (RelWithDebInfo), TRAINBENCH_WERROR (OFF; .ci/run sets ON),
# CMAKE_ARGS (extra cmake arguments, e.g. -DTRAINBENCH_DEPS_ROOT=... on a GPU host),
# BUILD_TARGET (one target, e.g. trainbench; default: everything, tests included),
# TRAINBENCH_TESTS (ON; main.sh sets OFF: the tests' packages are test.sh's to install).
# LibTorch for `trainbench train`: PyPI's torch in .venv/ (scripts/setup_python.sh, pinned in
# requirements.txt), given to CMake as LibTorch users do (torch.utils.cmake_prefix_path) unless
# CMAKE_ARGS names a CMAKE_PREFIX_PATH of its own (a GPU host's PyTorch). Without it the build
# skips the plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
torch_args=()
if [[ "${CMAKE_ARGS:-}" != *CMAKE_PREFIX_PATH* ]] && [ -x .venv/bin/python ] &&
  prefix=$(.venv/bin/python -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null); then
  torch_args=(-DCMAKE_PREFIX_PATH="$prefix")
fi
# shellcheck disable=SC2086
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  -DTRAINBENCH_WERROR="${TRAINBENCH_WERROR:-OFF}" \
  -DTRAINBENCH_TESTS="${TRAINBENCH_TESTS:-ON}" "${torch_args[@]}" ${CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$jobs" ${BUILD_TARGET:+--target "$BUILD_TARGET"}
