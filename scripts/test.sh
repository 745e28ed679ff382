#!/usr/bin/env bash
# The README's test command: installs what the build and tests need, builds, and runs
# every test (unit, end-to-end through the binary, interop with numpy/h5py/PIL).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
ctest --output-on-failure --timeout 900 -j "${TEST_JOBS:-2}" "$@"
