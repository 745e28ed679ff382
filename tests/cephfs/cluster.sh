#!/usr/bin/env bash
# CephFS for the tests: a shared file system mounted on two hosts, each with its own client
# and page cache, as most training data lives (issue 47). A one-host Ceph (ceph-mon, one
# ceph-osd on memstore, one ceph-mds: tests/lib/ceph.sh) on a bridge, two hosts made of
# network namespaces (tests/mpi/netns_hosts.sh), each also with a mount namespace of its own
# where its own ceph-fuse mounts the file system at DIR/mnt: the same path on both, as on a
# cluster. This machine's own namespace mounts it at DIR/mnt too (a third client), for the
# tests' setup and checks. Loopback, the bridge and the veths only; cephx on.
#
#   tests/cephfs/cluster.sh start DIR    # (re)creates DIR, starts it all, writes DIR/env
#   tests/cephfs/cluster.sh status DIR   # 0 when every daemon runs and each host sees a file
#                                        # written on the other
#   tests/cephfs/cluster.sh stop DIR     # unmounts, stops the daemons, removes the hosts
#
# By hand:
#   tests/cephfs/cluster.sh start /tmp/cfs && source /tmp/cfs/env
#   mapfile -t hosts <"$CEPHFS_HOSTS/mpirun.args"
#   mpirun "${hosts[@]}" -np 2 build/trainbench run ... dataset.data_folder=$CEPHFS_MNT/data
#   "$CEPHFS_HOSTS/rsh" hostb "ls $CEPHFS_MNT"          # a command on one host
#   tests/cephfs/cluster.sh stop /tmp/cfs
#
# DIR/env (shell-sourceable): CEPHFS_DIR, CEPHFS_MNT (the mount point on every host),
# CEPHFS_HOSTS (the hosts' folder: hostfile, rsh, mpirun.args; hosta and hostb by address),
# CEPHFS_CONF (ceph.conf; the admin key is in DIR/keyring), CEPHFS_MOUNT_NS (the hosts' mount
# namespaces: CEPHFS_MOUNT_NS/hosta, /hostb, for nsenter --mount), CEPHFS_HOST_A/_B (the addresses),
# CEPHFS_FUSE_PID_A/_B/_ROOT (each client's pid). Logs: DIR/log/*.log.
#
# The clients: ceph-fuse with its own object cache off (client_oc = false), so what a host has
# cached is in its kernel's page cache, where trainbench's cache figures can see it
# (mincore); ceph-fuse's own cache is invisible to a reader of the files (docs/distributed.md).
#
# CEPHFS_OSD_BYTES: the memstore's size (the file system's capacity, held in RAM), 2 GiB by
# default. START_TIMEOUT (seconds, 90 by default) bounds the whole start.
# Exit codes of start: 0 up; 77 a package or namespaces are missing (a test runner's "skip"),
# but 1 when CI=true; 1 anything else (the daemons' log tails are printed to stderr).
#
# Measured on the 2-core Debian bookworm box (Ceph 16.2.15), 2026-11-29: see the log lines of
# a start (each step's second).
set -euo pipefail

readonly MARKER=.trainbench-cephfs
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib/skip.sh
source "$HERE/../lib/skip.sh"  # skip_unless: the skip rule
# shellcheck source=../lib/daemons.sh
source "$HERE/../lib/daemons.sh"  # daemon_state_dir, daemon_is_ours, daemon_stop, wipe
# shellcheck source=../lib/ceph.sh
source "$HERE/../lib/ceph.sh"  # ceph_conf, ceph_start_core, start_daemon, die, ...
# shellcheck source=../mpi/netns_hosts.sh
source "$HERE/../mpi/netns_hosts.sh"  # netns_up, netns_down, netns_write_rsh
PY=/usr/bin/python3
export CEPH_OSD_BYTES=${CEPHFS_OSD_BYTES:-2147483648}

fixture_args "cephfs" "start|stop|status" "$@"
HOSTS=$DIR/hosts
MNT=$DIR/mnt
NS=$DIR/ns

log() { echo "cephfs: $*" >&2; }

# The hosts' mount namespaces: each held by a bind of its /proc file on NS/<host> (NS itself a
# private mount, which unshare --mount=FILE asks for).
make_mount_namespaces() {
  mkdir -p "$NS" "$MNT"
  mount --bind "$NS" "$NS"
  mount --make-private "$NS"
  local host
  for host in hosta hostb; do
    touch "$NS/$host"
    unshare --mount="$NS/$host" --propagation private true
  done
}

# The clients' mounts, each waited for until it answers a stat of its root.
mount_clients() {
  local host pid
  for host in hosta hostb root; do
    local enter=()
    [ "$host" = root ] || enter=(nsenter --net="/run/netns/$(host_ns "$host")" --mount="$NS/$host")
    start_daemon "fuse_$host" "${enter[@]}" ceph-fuse -f -c "$DIR/ceph.conf" --id admin \
      --client_fs=tbfs "$MNT"
    pid=$(tail -n 1 "$DIR/pids")
    local ok=0
    for _ in $(seq 100); do
      in_time || break
      require_alive "ceph-fuse on $host" "$pid" || break
      if in_mount_ns "$host" mountpoint -q "$MNT" && in_mount_ns "$host" stat "$MNT/." >/dev/null 2>&1; then
        ok=1
        break
      fi
      sleep 0.2
    done
    [ "$ok" = 1 ] || die "ceph-fuse on $host did not mount $MNT"
    echo "CEPHFS_FUSE_PID_${host^^}=$pid" >>"$DIR/fuse.pids"
    log "${SECONDS}s: $host mounted CephFS at $MNT (ceph-fuse pid $pid)"
  done
}

host_ns() {
  # shellcheck disable=SC1091
  (. "$HOSTS/netns.env" && if [ "$1" = hosta ]; then echo "$NETNS_A"; else echo "$NETNS_B"; fi)
}

# in_mount_ns HOST COMMAND...: COMMAND in HOST's mount namespace (this one's for root).
in_mount_ns() {
  local host=$1
  shift
  if [ "$host" = root ]; then "$@"; else nsenter --mount="$NS/$host" "$@"; fi
}

do_start() {
  local missing=() b
  for b in ceph-mon ceph-osd ceph-mds ceph-fuse ceph monmaptool nsenter unshare; do
    command -v "$b" >/dev/null || missing+=("$b")
  done
  skip_unless '[ ${#missing[@]} = 0 ]' \
    "cephfs: missing ${missing[*]} (Debian packages ceph-mon ceph-osd ceph-mds ceph-fuse ceph-common; scripts/setup.sh)"
  skip_unless '[ "$(id -u)" = 0 ] && [ -e /dev/fuse ] && netns_can' \
    "cephfs: needs root, /dev/fuse and network namespaces"

  deadline=$((SECONDS + ${START_TIMEOUT:-90}))
  # A stale DIR from a crashed run: stop what it still runs, then start afresh.
  if [ -d "$DIR" ]; then
    do_stop || true
    wipe 0
  fi
  mkdir -p "$DIR"/{log,run,mon,osd,mds,crash}
  touch "$DIR/$MARKER"
  : >"$DIR/pids"
  : >"$DIR/fuse.pids"

  netns_up "$HOSTS" 1 "tbf$$" >/dev/null || die "could not make the two hosts (netns_up)"
  # shellcheck disable=SC1091
  source "$HOSTS/netns.env"
  make_mount_namespaces
  netns_write_rsh "$HOSTS" "$NS"
  log "${SECONDS}s: hosts hosta ($NETNS_IP_A) and hostb ($NETNS_IP_B), each with its own mount namespace"

  local mon_port
  mon_port=$(free_port "$NETNS_IP_ROOT")
  ceph_conf "$NETNS_IP_ROOT" "$mon_port" "$NETNS_SUBNET"
  cat >>"$DIR/ceph.conf" <<EOF

[mds]
mds data = $DIR/mds/\$cluster-\$id
mds cache memory limit = 268435456

[client]
ms mon client mode = crc
admin socket = $DIR/run/\$name.\$pid.asok
log file = $DIR/log/\$name.\$pid.log
# The kernel's page cache holds what a host has read; ceph-fuse's own object cache would hide
# it from mincore (see the header).
client oc = false
client mount timeout = 30
fuse default permissions = false
EOF
  ceph_start_core "$NETNS_IP_ROOT" "$mon_port" \
    "mds.a --cap mon allow\ profile\ mds --cap osd allow\ rwx --cap mds allow"
  start_daemon mds ceph-mds -c "$DIR/ceph.conf" -f -i a

  ceph_cli osd pool create tbfs_metadata 8 >>"$DIR/log/mkfs.out" 2>&1 || die "creating the metadata pool failed"
  ceph_cli osd pool create tbfs_data 8 >>"$DIR/log/mkfs.out" 2>&1 || die "creating the data pool failed"
  ceph_cli fs new tbfs tbfs_metadata tbfs_data >>"$DIR/log/mkfs.out" 2>&1 || die "ceph fs new failed"
  ceph_wait mds "$MDS_PID" 120 0.25 "up:active" mds stat ||
    die "the mds did not become active: $(ceph_cli mds stat 2>&1)"
  log "${SECONDS}s: mds.a active for file system tbfs"

  mount_clients
  write_env
  shared_ok || die "a file written on hosta was not seen on hostb"
  log "${SECONDS}s: up: CephFS at $MNT on hosta, hostb and this host (env in $DIR/env)"
}

write_env() {
  # shellcheck disable=SC1091
  source "$HOSTS/netns.env"
  {
    echo "# Written by tests/cephfs/cluster.sh start; source it."
    echo "CEPHFS_DIR=$DIR"
    echo "CEPHFS_MNT=$MNT"
    echo "CEPHFS_HOSTS=$HOSTS"
    echo "CEPHFS_CONF=$DIR/ceph.conf"
    echo "CEPHFS_MOUNT_NS=$NS"
    echo "CEPHFS_HOST_A=$NETNS_IP_A"
    echo "CEPHFS_HOST_B=$NETNS_IP_B"
    cat "$DIR/fuse.pids"
    echo "export CEPHFS_DIR CEPHFS_MNT CEPHFS_HOSTS CEPHFS_CONF CEPHFS_MOUNT_NS CEPHFS_HOST_A CEPHFS_HOST_B"
  } >"$DIR/env.tmp"
  mv "$DIR/env.tmp" "$DIR/env"
}

# A file written on one host is read on the other, and on this one.
shared_ok() {
  local probe=$MNT/.cluster-probe.$$ word=shared-$RANDOM
  "$HOSTS/rsh" hosta "echo $word >$probe" &&
    [ "$("$HOSTS/rsh" hostb "cat $probe")" = "$word" ] &&
    [ "$(cat "$probe")" = "$word" ] &&
    "$HOSTS/rsh" hostb "rm $probe"
}

do_status() {
  [ -f "$DIR/env" ] || {
    echo "cephfs: not started in $DIR"
    exit 3
  }
  # shellcheck disable=SC1091
  source "$DIR/env"
  local bad=0 pid
  while read -r pid; do
    if daemon_is_ours "$pid"; then echo "pid $pid: running ($(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -c1-60))"; else
      echo "pid $pid: not running"
      bad=1
    fi
  done <"$DIR/pids"
  if shared_ok; then echo "cephfs: hosta, hostb and this host share $MNT"; else
    echo "cephfs: the hosts do not share $MNT"
    bad=1
  fi
  exit "$bad"
}

do_stop() {
  [ -d "$DIR" ] || return 0
  local rc=0 host
  # Unmount first: a FUSE mount whose daemon is gone hangs whoever touches it.
  if [ -d "$NS" ]; then
    for host in hosta hostb; do
      [ -s "$NS/$host" ] || [ -e "$NS/$host" ] || continue
      nsenter --mount="$NS/$host" umount -l "$MNT" 2>/dev/null || true
    done
  fi
  mountpoint -q "$MNT" 2>/dev/null && { umount -l "$MNT" || rc=1; }
  kill_daemons || rc=1
  if [ -d "$NS" ]; then
    for host in hosta hostb; do
      umount "$NS/$host" 2>/dev/null || true
    done
    umount "$NS" 2>/dev/null || true
  fi
  netns_down "$HOSTS" || rc=1
  wipe 1
  return "$rc"
}

fixture_main
