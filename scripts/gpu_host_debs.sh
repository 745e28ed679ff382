#!/usr/bin/env bash
# On a machine with Debian bookworm's apt (this project's build machine): downloads, as .deb
# files, the libraries trainbench builds against that a GPU host with PyTorch but no package
# registry lacks (the -dev packages with their headers, and the runtime libraries they need),
# for scripts/gpu_host_build.sh to unpack there. Nothing is installed here.
#
# Usage: scripts/gpu_host_debs.sh [OUTDIR]   (default: .debs, ignored by git)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.debs}
# Headers and the libraries of the same versions: unpacked together, so the build never
# mixes a host's own libjpeg or zlib headers with these libraries.
packages=(
  libyaml-cpp-dev libyaml-cpp0.7 nlohmann-json3-dev libcli11-dev libfmt-dev libfmt9
  libhdf5-dev libhdf5-103-1 libhdf5-hl-100 libsz2 libaec0 libcurl4 libssl3
  libcurl4-openssl-dev libssl-dev libpugixml-dev libpugixml1v5
  libturbojpeg0-dev libturbojpeg0 libjpeg62-turbo-dev libjpeg62-turbo libpng-dev libpng16-16
  zlib1g-dev zlib1g libisal-dev libisal2 libzip-dev libzip4 libbz2-1.0 liburing-dev liburing2
  libsnappy-dev libsnappy1v5 libzstd-dev liblz4-dev liblz4-1
  libgtest-dev libgmock-dev googletest
  pkgconf pkgconf-bin libpkgconf3
  libldap-2.5-0 libsasl2-2 libsasl2-modules-db libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1 libcom-err2
  libnghttp2-14 libidn2-0 librtmp1 libssh2-1 libpsl5 libbrotli1 libzstd1 libunistring2
)
mkdir -p "$out"
rm -f "$out"/*.deb
(cd "$out" && apt-get download -q "${packages[@]}")
echo "gpu_host_debs: $(ls "$out"/*.deb | wc -l) packages, $(du -sh "$out" | cut -f1) in $out"
