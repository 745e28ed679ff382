#!/usr/bin/env bash
# Builds trainbench's OCI image from the checkout's build, without a registry: a Debian
# bookworm root file system made by mmdebstrap (the Essential:yes set plus the runtime
# libraries of build/trainbench, no compilers, no -dev packages, no docs), with the binary
# (and, for the LibTorch variant, its plugin and LibTorch's shared libraries) in
# /opt/trainbench, imported into podman with `trainbench` as the entrypoint.
# docs/containers.md has the commands, sizes and times; `container/build.sh --help` the options.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)

usage() {
  cat <<EOF
usage: container/build.sh [options]

Builds the image IMAGE from BUILD/trainbench (and BUILD/libtrainbench_train.so for the LibTorch
variant) and imports it into podman (no registry): podman run --rm IMAGE train --allow-cpu ...

  --build DIR       the CMake build folder holding trainbench (default: build)
  --tag IMAGE       the image's name (default: localhost/trainbench:latest)
  --libtorch        the LibTorch variant: the plugin and the LibTorch shared libraries it links
                    (copied from where the build found them: PyPI's torch in .venv, whose
                    libtorch_cpu.so brings the CUDA runtime and CUPTI of the nvidia-* wheels).
                    The default when BUILD has libtrainbench_train.so.
  --no-libtorch     the binary alone (train then says it needs LibTorch)
  --mirror URL      the Debian mirror (default: http://deb.debian.org/debian; its -security
                    suite comes from http://deb.debian.org/debian-security)
  --work DIR        where the root file system tarball is made (default: BUILD/container)
  --keep-tar        keep DIR/rootfs.tar after the import (default: removed)
  --no-host-debs    do not reuse the .deb files in /var/cache/apt/archives
  --deb-cache DIR   the .debs apt downloads are kept there for the next build, and reused
                    (default: BUILD/container/debs)
  -h, --help        this text

Needs root (or mmdebstrap's unshare mode with uidmap), mmdebstrap and podman
(bash scripts/setup.sh installs them). Podman's storage and settings are podman's own:
CONTAINERS_STORAGE_CONF and CONTAINERS_CONF pick others (tests/container/image.sh does).
Prints the packages it installs, each step, the image's size and the time taken.
EOF
}

build=$src/build
tag=localhost/trainbench:latest
torch=auto
mirror=http://deb.debian.org/debian
security=http://deb.debian.org/debian-security
work=""
keep_tar=0
host_debs=1
deb_cache=""
while (($#)); do
  case $1 in
    --build) build=$(cd "${2:?--build needs a folder}" && pwd); shift ;;
    --tag) tag=${2:?--tag needs a name}; shift ;;
    --libtorch) torch=yes ;;
    --no-libtorch) torch=no ;;
    --mirror) mirror=${2:?--mirror needs a URL}; shift ;;
    --work) work=${2:?--work needs a folder}; shift ;;
    --keep-tar) keep_tar=1 ;;
    --no-host-debs) host_debs=0 ;;
    --deb-cache) deb_cache=${2:?--deb-cache needs a folder}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "container/build.sh: unknown argument '$1' (--help lists the options)" >&2; exit 2 ;;
  esac
  shift
done

die() {
  echo "container/build.sh: error: $*" >&2
  exit 1
}
step() { echo "container/build.sh: $(date -u +%H:%M:%S) $*"; }

for tool in mmdebstrap podman ldd dpkg strip; do
  command -v "$tool" >/dev/null || die "$tool is missing: run 'bash scripts/setup.sh' (it installs podman, buildah, mmdebstrap, runc, uidmap)"
done
binary=$build/trainbench
[ -x "$binary" ] || die "no binary at $binary: build it first ('bash scripts/build.sh', or cmake --build build --target trainbench)"
plugin=$build/libtrainbench_train.so
if [ "$torch" = auto ]; then
  if [ -f "$plugin" ]; then torch=yes; else torch=no; fi
fi
if [ "$torch" = yes ] && [ ! -f "$plugin" ]; then
  die "--libtorch: no plugin at $plugin (a build without LibTorch: bash scripts/setup_python.sh puts PyPI's torch in .venv, then bash scripts/build.sh; or use --no-libtorch)"
fi
work=${work:-$build/container}
deb_cache=${deb_cache:-$build/container/debs}
mkdir -p "$work" "$deb_cache"
work=$(cd "$work" && pwd)
deb_cache=$(cd "$deb_cache" && pwd)
started=$(date +%s)

# The Debian packages that hold the binary's shared libraries (ldd, then dpkg -S; bookworm
# registers some under /lib and some under /usr/lib, so both spellings are asked).
owner() {
  local lib=$1 real p
  real=$(readlink -f "$lib")
  for p in "$lib" "$real" "${lib/#\/lib\//\/usr\/lib\/}" "${real/#\/usr\/lib\//\/lib\/}"; do
    dpkg -S "$p" 2>/dev/null | head -n 1 | cut -d: -f1 && return 0
  done
  return 0  # not from a package: rootfs_install.sh copies it from the host
}
if ldd "$binary" | grep -q 'not found'; then
  die "$binary does not find its libraries here: $(ldd "$binary" | grep 'not found' | tr -s ' \t\n' ' ')"
fi
mapfile -t packages < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' |
  while read -r lib; do owner "$lib"; done | sort -u)
# Beyond the libraries: CA certificates (https endpoints: S3, stage), Chart.js (`report`
# inlines /usr/share/javascript/chart.js/chart.min.js).
packages+=(ca-certificates libjs-chart.js)
step "runtime packages of $binary (${#packages[@]}): ${packages[*]}"

# mmdebstrap's hooks run in mmdebstrap's process: they get the paths through the environment.
export TB_IMAGE_BINARY=$binary
export TB_IMAGE_PLUGIN=""
[ "$torch" = yes ] && TB_IMAGE_PLUGIN=$plugin
export TB_IMAGE_HOST_DEBS=""
if ((host_debs)); then TB_IMAGE_HOST_DEBS=/var/cache/apt/archives; fi
export TB_IMAGE_DEB_CACHE=$deb_cache

tar=$work/rootfs.tar
rm -f "$tar"
# Docs, man pages, info and translations are left out by dpkg itself (path-exclude); the
# copyright files stay. The merged-usr hook installs usr-is-merged (else apt picks usrmerge,
# which pulls in perl: 49 MB). The host's apt cache and the build's own .deb cache are
# hard-linked into the new system's apt cache (deb_cache.sh), so apt downloads only what
# neither has, and what it downloads is kept for the next build.
step "mmdebstrap bookworm (--variant=essential + ${#packages[@]} packages) into $tar"
if ! mmdebstrap --variant=essential --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
  --include="$(IFS=,; echo "${packages[*]}")" \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/lintian/*' \
  --skip=essential/unlink \
  --setup-hook="bash '$here/deb_cache.sh' in \"\$1\"" \
  --customize-hook="bash '$here/deb_cache.sh' out \"\$1\"" \
  --customize-hook="bash '$here/rootfs_install.sh' \"\$1\"" \
  bookworm "$tar" \
  "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
  "deb $security bookworm-security main" 2>&1 | sed -u 's/^/  mmdebstrap: /'; then
  die "mmdebstrap failed (its output is above; a mirror that cannot be reached: --mirror URL)"
fi
[ -s "$tar" ] || die "mmdebstrap made no tarball at $tar (its output is above)"
built=$(date +%s)
step "root file system: $(du -m "$tar" | cut -f1) MiB tarball in $((built - started)) s"

step "podman import $tar as $tag"
podman import \
  --change 'ENTRYPOINT ["/opt/trainbench/trainbench"]' \
  --change 'ENV PATH=/opt/trainbench:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'WORKDIR /work' \
  --change "LABEL org.opencontainers.image.title=trainbench org.opencontainers.image.source=$src org.opencontainers.image.description=trainbench-$([ "$torch" = yes ] && echo libtorch || echo no-libtorch)" \
  --message "container/build.sh from $binary" \
  "$tar" "$tag" >/dev/null
((keep_tar)) || rm -f "$tar"
size=$(podman image inspect --format '{{.Size}}' "$tag")
done_at=$(date +%s)
variant=$([ "$torch" = yes ] && echo "with LibTorch" || echo "without LibTorch")
step "image $tag ($variant): $((size / 1000000)) MB ($size bytes, podman image inspect), built in $((done_at - started)) s"
echo "  run it: podman run --rm $tag train --allow-cpu --batch-size 2 --steps-per-epoch 2"
