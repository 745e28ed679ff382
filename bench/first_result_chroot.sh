#!/usr/bin/env bash
# Time to the first result on a fresh machine: a bare Debian bookworm (mmdebstrap's apt variant,
# plus git and ca-certificates to clone) in a chroot, where bench/first_result.sh clones this
# checkout's HEAD and runs `bash scripts/main.sh`: setup installs every package itself from
# Debian's mirror, the build compiles every object (no ccache), then datagen and run.
# Root only (mmdebstrap, chroot, mounts). The chroot is removed at the end unless KEEP=1.
# Usage: sudo bench/first_result_chroot.sh [ROOT_DIR]   (default /tmp/trainbench-bench/fresh-root)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/tmp/trainbench-bench/fresh-root}
[ "$(id -u)" -eq 0 ] || { echo "first_result_chroot: needs root (mmdebstrap, chroot, mount)" >&2; exit 2; }
command -v mmdebstrap >/dev/null || { echo "first_result_chroot: needs mmdebstrap (apt install mmdebstrap)" >&2; exit 2; }
cleanup() {
  umount -R "$root/dev" "$root/sys" "$root/proc" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$root"
}
trap cleanup EXIT
rm -rf "$root"
mkdir -p "$(dirname "$root")"
echo "first_result_chroot: mmdebstrap bookworm into $root (not timed)"
mmdebstrap --quiet --variant=apt --include=git,ca-certificates bookworm "$root"
git clone -q "$src" "$root/src/trainbench"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb \
  bash -c 'cd /src/trainbench && bash bench/first_result.sh /root/first-result'
