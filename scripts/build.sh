#!/usr/bin/env bash
# Configures and builds trainbench into build/ (build/trainbench). Re-runs are incremental.
# Environment: BUILD_TYPE (RelWithDebInfo), TRAINBENCH_WERROR (OFF; .ci/run sets ON),
# CMAKE_ARGS (extra cmake arguments, e.g. -DTRAINBENCH_DEPS_ROOT=... on a GPU host),
# BUILD_TARGET (one target, e.g. trainbench; default: everything, tests included),
# TRAINBENCH_TESTS (ON; main.sh sets OFF: the tests' packages are test.sh's to install).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# shellcheck disable=SC2086
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  -DTRAINBENCH_WERROR="${TRAINBENCH_WERROR:-OFF}" \
  -DTRAINBENCH_TESTS="${TRAINBENCH_TESTS:-ON}" ${CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$jobs" ${BUILD_TARGET:+--target "$BUILD_TARGET"}
