#!/usr/bin/env bash
# Builds trainbench (with `trainbench train` against the host's own PyTorch/LibTorch and
# CUDA) on a GPU host that has PyTorch but no package registry, such as an NGC-style
# container or a locked-down cluster node. The Debian packages trainbench needs travel as
# .deb files made on a machine with apt (scripts/gpu_host_debs.sh); they are unpacked into
# a folder of the build, never into /, and the build uses their headers and libraries
# together (TRAINBENCH_DEPS_ROOT), whatever other libjpeg or zlib the host carries.
#
# Usage: scripts/gpu_host_build.sh [DEBS_DIR]   (default: .debs)
# Environment: PYTHON (python3: the one with torch), BUILD_TYPE (Release), JOBS (nproc),
#   TRAINBENCH_TESTS (ON).
set -euo pipefail
cd "$(dirname "$0")/.."
debs=${1:-.debs}
root=$PWD/build-deps/root
python=${PYTHON:-python3}
ls "$debs"/*.deb >/dev/null 2>&1 || {
  echo "gpu_host_build: no .deb files in $debs: run scripts/gpu_host_debs.sh on a machine with apt, copy $debs here" >&2
  exit 2
}
torch_prefix=$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)') || {
  echo "gpu_host_build: $python cannot import torch: set PYTHON to the python that has PyTorch" >&2
  exit 2
}

rm -rf "$root" && mkdir -p "$root"
for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$root"; done
# Debian's absolute symlinks (libz.so -> /lib/...) must point into the unpacked tree.
find "$root" -type l -lname '/*' | while read -r link; do
  ln -sfn "$root$(readlink "$link")" "$link"
done
export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
pkg_config=$(command -v pkg-config || echo "$root/usr/bin/pkgconf")

echo "gpu_host_build: $(ls "$debs"/*.deb | wc -l) packages unpacked in $root; torch $("$python" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)')"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DTRAINBENCH_DEPS_ROOT="$root" -DCMAKE_PREFIX_PATH="$torch_prefix" \
  -DPKG_CONFIG_EXECUTABLE="$pkg_config" -DTRAINBENCH_TESTS="${TRAINBENCH_TESTS:-ON}" \
  -DTRAINBENCH_WERROR="${TRAINBENCH_WERROR:-OFF}"
cmake --build build -j "${JOBS:-$(nproc)}"
echo "gpu_host_build: built build/trainbench ($(build/trainbench --version))"
