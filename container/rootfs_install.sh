#!/usr/bin/env bash
# mmdebstrap's customize hook for container/build.sh: puts trainbench into the new root file
# system ROOT. Not meant to be run by hand.
#   rootfs_install.sh ROOT     (environment: TB_IMAGE_BINARY, TB_IMAGE_PLUGIN (may be empty))
# The binary goes to ROOT/opt/trainbench/trainbench with its debug info stripped, the plugin
# beside it (the binary loads it from its own folder). Every shared library that the binary or
# the plugin needs and the new system lacks (the binary's come from Debian packages already;
# LibTorch's do not) is copied from the host into ROOT/opt/trainbench/lib, which ld.so.conf.d
# names, until ldd inside ROOT finds everything.
set -euo pipefail
root=${1:?usage: rootfs_install.sh ROOT}
say() { echo "rootfs_install.sh: $*"; }

# install-info's index, written by a maintainer script despite dpkg's path-exclude of info/.
rm -f "$root"/usr/share/info/dir "$root"/usr/share/info/dir.old

dest=$root/opt/trainbench
mkdir -p "$dest/lib" "$root/work"
strip --strip-debug -o "$dest/trainbench" "$TB_IMAGE_BINARY"
chmod 755 "$dest/trainbench"
elves=("$dest/trainbench")
hosts=("$TB_IMAGE_BINARY")
if [ -n "${TB_IMAGE_PLUGIN:-}" ]; then
  strip --strip-debug -o "$dest/libtrainbench_train.so" "$TB_IMAGE_PLUGIN"
  elves+=("$dest/libtrainbench_train.so")
  hosts+=("$TB_IMAGE_PLUGIN")
fi
say "installed ${elves[*]#"$root"}"
echo /opt/trainbench/lib >"$root/etc/ld.so.conf.d/trainbench.conf"

# soname -> the host's file, from the host's ldd of the binary and the plugin (ldd lists the
# whole closure).
declare -A host_lib
while read -r name path; do
  host_lib[$name]=$path
done < <(for f in "${hosts[@]}"; do ldd "$f"; done | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}')

copied=0
for _ in $(seq 20); do
  chroot "$root" /sbin/ldconfig
  mapfile -t missing < <(for f in "${elves[@]}"; do chroot "$root" /usr/bin/ldd "${f#"$root"}"; done |
    awk '/not found/ {print $1}' | sort -u)
  ((${#missing[@]})) || break
  for name in "${missing[@]}"; do
    [ -n "${host_lib[$name]:-}" ] || {
      echo "rootfs_install.sh: error: $name is needed but the host's ldd of ${hosts[*]} does not find it" >&2
      exit 1
    }
    cp -L "${host_lib[$name]}" "$dest/lib/$name"
    copied=$((copied + 1))
  done
done
if ((${#missing[@]})); then
  echo "rootfs_install.sh: error: still missing after 20 rounds: ${missing[*]}" >&2
  exit 1
fi
if ((copied)); then
  say "copied $copied shared libraries from the host into /opt/trainbench/lib ($(du -sm "$dest/lib" | cut -f1) MiB)"
else
  say "every shared library comes from the Debian packages: none copied from the host"
fi
chroot "$root" /opt/trainbench/trainbench --version >/dev/null 2>&1 ||
  chroot "$root" /opt/trainbench/trainbench --help >/dev/null ||
  { echo "rootfs_install.sh: error: /opt/trainbench/trainbench does not start in the new system" >&2; exit 1; }
say "trainbench starts in the new system"
