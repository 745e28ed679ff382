#!/usr/bin/env bash
# The container suite's image, built once for the suite (the container.image_build and
# container.image_remove fixtures): container/build.sh makes it from the build's binary (and
# LibTorch plugin) into a podman storage of the suite's own under DIR, so nothing outside DIR
# is touched and stop removes only what start made.
#
#   tests/container/image.sh start DIR   # (re)creates DIR, builds the image, writes DIR/env
#   tests/container/image.sh stop DIR    # removes the suite's containers, image and storage
#
# DIR/env (shell-sourceable): CONTAINERS_CONF and CONTAINERS_STORAGE_CONF (the suite's podman
# settings, below), CONTAINER_IMAGE (localhost/trainbench-test:PID), CONTAINER_LIBTORCH (yes
# or no), CONTAINER_IMAGE_BYTES (podman image inspect's size), CONTAINER_BUILD_SECONDS.
# DIR/build.log: container/build.sh's output. Environment: TRAINBENCH (the binary; its
# folder is the build whose binary and plugin go into the image).
#
# The podman settings (DIR/containers.conf), each needed in the sandbox this was written in
# (Debian bookworm in a VM, root, cgroup v1 with a cgroup2 hierarchy beside it, no
# CAP_SYS_RESOURCE, nofile hard limit 20000) and harmless elsewhere:
# - runtime runc: crun 1.8.1 refuses to start anything on hybrid cgroups ("cgroups in hybrid
#   mode not supported, drop all controllers from cgroupv2"), with --cgroups=disabled too;
# - default_ulimits at this shell's hard limits: podman's defaults for root (nofile 1048576,
#   nproc 4194304) cannot be set without CAP_SYS_RESOURCE ("setrlimit RLIMIT_NOFILE:
#   Operation not permitted"); nproc stays at most 32768, what conmon runs with;
# - netns "none": nothing in the suite needs a network but the S3 test, which says
#   --network=host; the default bridge would add a cni-podman0 bridge and iptables rules to
#   the host;
# - storage (DIR/storage.conf): overlay under DIR, or vfs where DIR is itself on overlayfs
#   (a CI job inside a container), where the kernel's overlay cannot stack.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib/skip.sh
source "$HERE/../lib/skip.sh"
# shellcheck source=../lib/daemons.sh
source "$HERE/../lib/daemons.sh"  # daemon_state_dir

fixture_args image.sh "start|stop" "$@"
readonly MARKER=.trainbench-container-suite

write_conf() {
  local nofile nproc driver=overlay
  nofile=$(ulimit -Hn)
  nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
  [ "$(stat -f -c %T "$DIR")" = overlayfs ] && driver=vfs
  mkdir -p "$DIR/storage" "$DIR/run" "$DIR/tmp"
  cat >"$DIR/containers.conf" <<EOF
# The container suite's podman settings (tests/container/image.sh says why each is here).
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
netns = "none"
log_driver = "k8s-file"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$DIR/tmp"
volume_path = "$DIR/storage/volumes"
EOF
  cat >"$DIR/storage.conf" <<EOF
# The container suite's own podman storage (tests/container/image.sh).
[storage]
driver = "$driver"
graphroot = "$DIR/storage"
runroot = "$DIR/run"
EOF
  echo "image.sh: podman settings in $DIR/containers.conf, storage ($driver) in $DIR/storage"
}

do_start() {
  skip_unless '[ "$(id -u)" = 0 ]' "the container suite runs podman and mmdebstrap as root"
  skip_unless 'command -v podman && command -v mmdebstrap && command -v runc' \
    "podman, mmdebstrap or runc missing (bash scripts/setup.sh installs them)"
  [ -n "${TRAINBENCH:-}" ] && [ -x "$TRAINBENCH" ] ||
    { echo "image.sh: TRAINBENCH='${TRAINBENCH:-}' is not the binary" >&2; exit 1; }
  do_stop >/dev/null 2>&1 || true
  mkdir -p "$DIR"
  touch "$DIR/$MARKER"
  write_conf
  export CONTAINERS_CONF=$DIR/containers.conf CONTAINERS_STORAGE_CONF=$DIR/storage.conf
  local image=localhost/trainbench-test:$$ torch=no started ended
  [ -f "$(dirname "$TRAINBENCH")/libtrainbench_train.so" ] && torch=yes
  started=$(date +%s)
  # The build's own output, line by line, to the log and (the fixture's output) to ctest.
  if ! bash "$HERE/../../container/build.sh" --build "$(dirname "$TRAINBENCH")" --tag "$image" \
    --work "$DIR/work" 2>&1 | tee "$DIR/build.log"; then
    echo "image.sh: container/build.sh failed (its output above, and in $DIR/build.log)" >&2
    exit 1
  fi
  ended=$(date +%s)
  local bytes
  bytes=$(podman image inspect --format '{{.Size}}' "$image")
  cat >"$DIR/env" <<EOF
export CONTAINERS_CONF=$DIR/containers.conf
export CONTAINERS_STORAGE_CONF=$DIR/storage.conf
CONTAINER_DIR=$DIR
CONTAINER_IMAGE=$image
CONTAINER_LIBTORCH=$torch
CONTAINER_IMAGE_BYTES=$bytes
CONTAINER_BUILD_SECONDS=$((ended - started))
EOF
  echo "image.sh: $image ready ($((bytes / 1000000)) MB, LibTorch $torch, $((ended - started)) s); settings in $DIR/env"
}

do_stop() {
  [ -d "$DIR" ] || return 0
  [ -f "$DIR/$MARKER" ] || { echo "image.sh: $DIR was not made by image.sh start: left alone" >&2; return 1; }
  if [ -f "$DIR/containers.conf" ] && command -v podman >/dev/null; then
    export CONTAINERS_CONF=$DIR/containers.conf CONTAINERS_STORAGE_CONF=$DIR/storage.conf
    # Everything in this storage was made by the suite: its containers, then its images.
    podman rm --all --force --time 5 >/dev/null 2>&1 || true
    podman rmi --all --force >/dev/null 2>&1 || true
    # (Not `podman system reset`: it also removes the host's network definitions.)
  fi
  # Overlay mounts of a container killed mid-run would pin the storage: unmount what is left.
  { grep -F " $DIR/" /proc/mounts || true; } | awk '{print $2}' | sort -r |
    while read -r m; do umount -l "$m" || true; done
  rm -rf "$DIR/storage" "$DIR/run" "$DIR/tmp" "$DIR/work" "$DIR/env"
  echo "image.sh: the suite's containers, image and storage under $DIR removed (build.log kept)"
}

fixture_main
