#!/usr/bin/env bash
# Installs what trainbench needs, from Debian's apt (and, for the tests, the npm registry and PyPI).
#   setup.sh binary   the build and runtime packages of the trainbench binary alone (scripts/main.sh)
#   setup.sh          those, and everything the tests and benches need (scripts/test.sh)
# Idempotent: packages already present are left alone, so re-running costs seconds.
# The binary's: the compiler and CMake, the libraries it links, Open MPI (mpirun across hosts),
# libjs-chart.js and gnuplot-nox (`trainbench report` inlines Chart.js; gnuplot draws --png).
# The tests' and benches':
# ceph-mon, ceph-osd, radosgw, ceph-common: the S3 server the tests run (tests/s3/gateway.sh).
# ceph-mds, ceph-fuse: the CephFS the tests mount on two hosts (tests/cephfs/cluster.sh).
# chromium, tmux: the report's tests (headless Chromium renders the page, tmux the live view).
# nginx, squid: the origin and the mirror the stage tests fetch from (tests/stage/servers.sh).
# aria2: the third client of bench/stage_vs_curl.sh (aria2c -x 8).
# rclone: the third reader of bench/s3_read_vs_s3dlio.sh (beside s3dlio from PyPI).
# slurmctld, slurmd, slurm-client, munge: the Slurm cluster the slurm tests start (tests/slurm/cluster.sh).
# podman, mmdebstrap, runc: the container image (container/build.sh) and its tests (runc: crun
# refuses hybrid cgroups; tests/container/image.sh); python3-yaml: the Kubernetes Job's check.
# libgloo-dev: Gloo's headers alone, which LibTorch's c10d/ProcessGroupGloo.hpp includes and
# PyPI's torch does not ship (its libtorch_cpu.so carries Gloo itself): `train` across CPU processes.
# The PyPI peers (pyarrow, TensorFlow, PyTorch, DLIO, ...): scripts/setup_python.sh, into .venv/.
# PyTorch there is also the LibTorch of `trainbench train` (scripts/build.sh): no Debian LibTorch.
set -euo pipefail
profile=${1:-all}
case $profile in
  binary | all) ;;
  *)
    echo "usage: setup.sh [binary]  (binary: the trainbench binary's packages alone)" >&2
    exit 2
    ;;
esac

packages=(
  build-essential cmake ninja-build pkg-config
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libhdf5-dev libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev zlib1g-dev
  libisal-dev libzip-dev liburing-dev libsnappy-dev libzstd-dev liblz4-dev
  libcurl4-openssl-dev libpugixml-dev libssl-dev libarchive-dev
  libopenmpi-dev openmpi-bin
  libjs-chart.js gnuplot-nox
)
if [ "$profile" = all ]; then
  packages+=(
    clang-format git hdf5-tools universal-ctags
    libgloo-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    ceph-mon ceph-osd radosgw ceph-common ceph-mds ceph-fuse
    nginx squid
    slurmctld slurmd slurm-client munge
    fio aria2 time zstd python3 python3-numpy python3-h5py python3-pil
    chromium tmux
    podman mmdebstrap runc python3-yaml strace
    rclone
  )
fi

# Ubuntu (22.04, 24.04; NGC containers) names libjpeg-turbo's libjpeg API differently.
if grep -qs '^ID=ubuntu' /etc/os-release; then
  for i in "${!packages[@]}"; do
    case ${packages[$i]} in
      libjpeg62-turbo-dev) packages[$i]=libjpeg-turbo8-dev ;;
    esac
  done
fi

# node and npm for the independent Parquet reader (tests/interop/node). A NodeSource nodejs
# carries its own npm and conflicts with Debian's npm package: ask for them only when no npm
# is there.
[ "$profile" = binary ] || command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${#missing[@]} packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # A host that reaches no package registry (a GPU node with PyTorch but no apt mirror, as on
  # the GPU host this project measures on) fails here with apt's own errors per package: say
  # what to do instead, once.
  if ! { $SUDO apt-get update -q && $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"; }; then
    {
      echo "setup: apt could not install ${#missing[@]} packages (no package registry here, or"
      echo "  names this distribution lacks): ${missing[*]}"
      echo "  On a host with PyTorch but no registry, bring the build's libraries as .deb files"
      echo "  made on a machine with Debian bookworm's apt, and build from them:"
      echo "    bash scripts/gpu_host_debs.sh .debs     # on the apt machine; copy .debs here"
      echo "    bash scripts/gpu_host_build.sh .debs    # here: builds build/trainbench with train"
    } >&2
    exit 1
  fi
else
  echo "setup: all ${#packages[@]} packages present"
fi
[ "$profile" = all ] || exit 0

# The JS packages of tests/interop/node (hyparquet and its decompressors), tests/s3/node
# (s3rver, a second S3 server) and tests/report/lint (ESLint and stylelint for the report
# page's assets), at the versions of their package-lock.json; again only when a lock changed.
# Without the npm registry this warns and goes on: the tests that need them skip (and fail
# under CI=true).
for node_dir in "$(dirname "$0")/../tests/interop/node" "$(dirname "$0")/../tests/s3/node" \
  "$(dirname "$0")/../tests/report/lint"; do
  if [ ! -f "$node_dir/node_modules/.package-lock.json" ] ||
    [ "$node_dir/package-lock.json" -nt "$node_dir/node_modules/.package-lock.json" ]; then
    if (cd "$node_dir" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error); then
      echo "setup: npm packages of $node_dir installed"
    else
      echo "setup: warning: 'npm ci' in $node_dir failed (no npm registry?);" \
        "the tests that need them will skip until it succeeds" >&2
    fi
  fi
done

bash "$(dirname "$0")/setup_python.sh"
