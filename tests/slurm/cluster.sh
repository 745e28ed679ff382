#!/usr/bin/env bash
# A real Slurm cluster for the tests: slurmctld in the root network namespace and one slurmd
# in each of the two network-namespace "hosts" of tests/mpi/netns_hosts.sh (hosta, hostb),
# munge for authentication, everything under DIR and started and stopped by this script (no
# systemd, nothing of /etc/slurm or /etc/munge used). Needs Debian's slurmctld, slurmd,
# slurm-client and munge (scripts/setup.sh), root and network namespaces.
#
#   tests/slurm/cluster.sh start DIR    # (re)creates DIR, starts the daemons, writes DIR/env
#   tests/slurm/cluster.sh status DIR   # 0 when both nodes are idle and a job runs on both
#   tests/slurm/cluster.sh stop DIR     # stops the daemons, removes the namespaces and state
#                                       # (keeps DIR/log)
# By hand:
#   tests/slurm/cluster.sh start /tmp/sc && source /tmp/sc/env
#   srun -N2 hostname          # hosta, hostb
#   tests/slurm/cluster.sh stop /tmp/sc
#
# DIR/env (shell-sourceable): SLURM_CONF (the clients' configuration: srun, sbatch, squeue,
# scontrol, scancel read it), SLURM_CLUSTER_DIR, SLURM_CLUSTER_HOSTS (netns_hosts.sh's DIR:
# hostfile, rsh agent, mpirun.args for an mpirun over the same two hosts) and its NETNS_*
# variables, SLURM_CLUSTER_PARTITION.
#
# The cluster:
#   - munged with its own key, socket, pid, log and seed under DIR/munge (slurm.conf's
#     AuthInfo=socket=... points every daemon and client at it). The socket is a path, so the
#     namespaces reach it: they share the mount namespace.
#   - slurmctld on the bridge address 10.77.X.254 (SlurmctldHost=tbctl(ADDR)), a free port,
#     run under `unshare --uts` with host name tbctl: slurmctld refuses to start on a host
#     whose name is not SlurmctldHost's.
#   - slurmd per host: `ip netns exec NS unshare --uts` with the host's name (as the rsh agent
#     of netns_hosts.sh does), `-N hosta`; per-node spool, pid and log paths through %n.
#   - /etc/netns/NS/hosts (bind-mounted over /etc/hosts by `ip netns exec`, so in the
#     namespaces only) names hosta, hostb and tbctl: a job's processes resolve the host names
#     Slurm gives them (SLURM_JOB_NODELIST; `train` connects to the first one), and Gloo
#     finds this host's address from its name, as on a cluster with DNS.
#   - A /tmp of each host's own: slurmd's mount namespace (the one `ip netns exec` makes)
#     has DIR/tmp.hosta bind-mounted on DIR/tmp, which is TmpFS. mpi/pmix makes its client
#     directory TmpFS/spmix_appdir_UID_JOB.STEP on every node of a step, and the second
#     node's stepd failed with "Cannot create directory ... File exists" on a shared /tmp.
#   - No cgroups: ProctrackType=proctrack/linuxproc (a step's processes found through
#     /proc's parent links), TaskPlugin=task/none, JobAcctGatherType=jobacct_gather/none,
#     no accounting daemon (squeue/scontrol, not sacct). Each node claims 4 CPUs whatever
#     the box has (SlurmdParameters=config_overrides), so 2 tasks per node fit on 2 cores.
#     slurmd 22.05 still loads its cgroup plugin at start and stops when that fails: first
#     "No filesystem mounted on /sys/fs/cgroup" (`ip netns exec` mounts a fresh /sys), then,
#     with a tmpfs there, "can't stat /sys/fs/cgroup/systemd/", and with a plain folder
#     "Unexpected fs type on /sys/fs/cgroup/systemd". So slurmd's mount namespace gets a
#     tmpfs on /sys/fs/cgroup with a cgroup v1 hierarchy named systemd (no controller, so it
#     mounts beside a cgroup v2 host's too) on /sys/fs/cgroup/systemd; nothing is put in it.
#   - MpiDefault=pmix: Debian's Slurm 22.05 has mpi/pmix_v4 (libpmix2 4.2) and Debian's
#     Open MPI 4.1 uses the same external PMIx (its pmix/ext3x component; it has no PMI-2
#     client, s1/s2), so srun starts MPI ranks through PMIx.
#   - stop also kills this cluster's clients (srun, sbatch, ... whose SLURM_CONF is DIR's: an
#     srun whose controller is gone retries for minutes); start first removes the leftovers
#     of clusters whose DIR is gone (gc: namespaces, slurmctld, munged).
#   - The namespaces are named tbs<pid>a/b, not tbn<pid>: netns_hosts.sh's gc removes
#     tbn<pid> namespaces whose <pid> is gone, and this script's pid is gone while the
#     cluster runs.
#
# START_TIMEOUT (seconds, 60 by default) bounds the whole start. Exit codes of start: 0 up;
# 77 a package or namespaces missing (the runner's skip; 1 when CI=true); 1 anything else
# (the daemons' log tails on stderr, and what was started stopped again).
set -euo pipefail

readonly MARKER=.trainbench-slurm-cluster
readonly PARTITION=tb
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib/skip.sh
source "$HERE/../lib/skip.sh"
# shellcheck source=../lib/daemons.sh
source "$HERE/../lib/daemons.sh"  # daemon_state_dir, daemon_is_ours, daemon_stop, wipe
# shellcheck source=../mpi/netns_hosts.sh
source "$HERE/../mpi/netns_hosts.sh"
PY=/usr/bin/python3

fixture_args "slurm cluster" "start|stop|status" "$@"
HOSTS=$DIR/hosts

log() { echo "slurm cluster: $*" >&2; }

dump_logs() {
  local f
  for f in "$DIR"/log/*; do
    [ -s "$f" ] || continue
    echo "----- tail of $f -----" >&2
    tail -n 30 "$f" >&2
  done
}

# The daemons' pids from their pid files (slurmctld and munged daemonize).
pid_of() { [ -s "$1" ] && cat "$1" || true; }

# Slurm clients of this cluster still running (their SLURM_CONF is DIR's): an srun whose
# controller is gone retries for minutes.
clients_left() {
  local p
  for p in /proc/[0-9]*; do
    case $(cat "$p/comm" 2>/dev/null) in
      srun | sbatch | salloc | squeue | scontrol | scancel | sinfo) ;;
      *) continue ;;
    esac
    tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qxF -- "SLURM_CONF=$DIR/slurm.conf" &&
      echo "${p#/proc/}"
  done
  return 0
}

# Stops everything: the slurmds and every process of a job (all in the namespaces: killed
# with them), the clients, slurmctld, munged; then the namespaces and their hosts files.
kill_all() {
  local rc=0 ns pid
  if [ -f "$HOSTS/netns.env" ]; then
    # shellcheck disable=SC1091
    . "$HOSTS/netns.env"
    for ns in "$NETNS_A" "$NETNS_B"; do
      [ -e "/run/netns/$ns" ] && netns_kill_ns "$ns"
    done
  fi
  for pid in $(clients_left); do kill -KILL "$pid" 2>/dev/null || true; done
  daemon_stop "$(pid_of "$DIR/run/slurmctld.pid")" || rc=1
  daemon_stop "$(pid_of "$DIR/munge/munged.pid")" || rc=1
  if [ -f "$HOSTS/netns.env" ]; then
    for ns in "$NETNS_A" "$NETNS_B"; do
      [ -f "/etc/netns/$ns/hosts" ] && grep -qF "$MARKER" "/etc/netns/$ns/hosts" &&
        rm -f "/etc/netns/$ns/hosts" && rmdir "/etc/netns/$ns" 2>/dev/null
    done
    rmdir /etc/netns 2>/dev/null || true
    netns_down "$HOSTS" || rc=1
  fi
  return "$rc"
}

# Leftovers of clusters whose DIR is gone (a start or a suite killed with -9, then its build
# folder removed): namespaces tbs<pid>a/b whose hosts file names a DIR without the marker.
# The slurmds and jobs die with the namespaces; slurmctld and munged are found by DIR in
# their command lines.
gc() {
  local f ns dir prefix p
  for f in /etc/netns/tbs*a/hosts; do
    [ -f "$f" ] || continue
    dir=$(sed -n "1s/^# $MARKER: \(.*\) (tests\/slurm\/cluster.sh.*/\1/p" "$f")
    [ -n "$dir" ] && [ ! -e "$dir/$MARKER" ] || continue
    ns=$(basename "$(dirname "$f")")
    prefix=${ns%a}
    log "removing leftovers of a cluster whose $dir is gone ($prefix)"
    netns_down_prefix "$prefix"
    for p in /proc/[0-9]*; do
      case $(cat "$p/comm" 2>/dev/null) in slurmctld | munged) ;; *) continue ;; esac
      tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF -- "$dir/" && kill -KILL "${p#/proc/}" 2>/dev/null
    done
    rm -f "/etc/netns/${prefix}a/hosts" "/etc/netns/${prefix}b/hosts"
    rmdir "/etc/netns/${prefix}a" "/etc/netns/${prefix}b" 2>/dev/null || true
  done
  rmdir /etc/netns 2>/dev/null || true
}

die() {
  log "$*"
  rm -f "$DIR/env"
  dump_logs
  kill_all || true
  exit 1
}

in_time() { ((SECONDS < deadline)); }

free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("0.0.0.0", 0)); print(s.getsockname()[1])'
}

clients() { SLURM_CONF=$DIR/slurm.conf timeout -k 2 10 "$@"; }

# Both nodes idle, and a two-node step that prints both host names.
healthy() {
  local states names
  states=$(clients sinfo -h -N -o '%N %t' 2>/dev/null | sort | tr '\n' ' ') || return 1
  [ "$states" = "hosta idle hostb idle " ] || return 1
  names=$(clients srun -N2 -n2 --mpi=none hostname 2>/dev/null | sort | tr '\n' ' ') || return 1
  [ "$names" = "hosta hostb " ]
}

write_conf() {
  local port=$1
  cat >"$DIR/slurm.conf" <<EOF
# Written by tests/slurm/cluster.sh for $DIR: see its header.
ClusterName=trainbench
SlurmctldHost=tbctl($NETNS_IP_ROOT)
SlurmctldPort=$port
SlurmdPort=6818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/ctld
SlurmdSpoolDir=$DIR/spool/%n
TmpFS=$DIR/tmp
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.%n.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=pmix
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
SlurmdTimeout=30
MessageTimeout=10
KillWait=10
InactiveLimit=0
MinJobAge=600
PropagateResourceLimits=NONE
NodeName=hosta NodeAddr=$NETNS_IP_A CPUs=4 RealMemory=1000 State=UNKNOWN
NodeName=hostb NodeAddr=$NETNS_IP_B CPUs=4 RealMemory=1000 State=UNKNOWN
PartitionName=$PARTITION Nodes=hosta,hostb Default=YES MaxTime=INFINITE State=UP
EOF
}

do_start() {
  local missing=() b
  for b in slurmctld slurmd srun sbatch squeue scontrol munged ip unshare; do
    command -v "$b" >/dev/null || missing+=("$b")
  done
  skip_unless '[ ${#missing[@]} = 0 ]' \
    "slurm cluster: missing ${missing[*]} (Debian packages slurmctld slurmd slurm-client munge; scripts/setup.sh)"
  skip_unless '[ "$(id -u)" = 0 ]' "slurm cluster: network namespaces and daemons need root"
  skip_unless netns_can "slurm cluster: cannot make network namespaces here"

  deadline=$((SECONDS + ${START_TIMEOUT:-60}))
  gc
  if [ -d "$DIR" ]; then
    kill_all || true
    wipe 0
  fi
  mkdir -p "$DIR"/{log,run,ctld,spool,munge,tmp}
  touch "$DIR/$MARKER"
  chmod 755 "$DIR/munge"

  netns_up "$HOSTS" 2 "tbs$$" >/dev/null || die "netns_up failed"
  # shellcheck disable=SC1091
  . "$HOSTS/netns.env"
  local ns
  for ns in "$NETNS_A" "$NETNS_B"; do
    mkdir -p "/etc/netns/$ns"
    {
      echo "# $MARKER: $DIR (tests/slurm/cluster.sh; removed by its stop)"
      echo "127.0.0.1 localhost"
      echo "$NETNS_IP_A hosta"
      echo "$NETNS_IP_B hostb"
      echo "$NETNS_IP_ROOT tbctl"
    } >"/etc/netns/$ns/hosts"
  done

  # munge: a fresh key each start.
  dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$DIR/munge/munge.key"
  munged --force --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.socket" \
    --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/log/munged.log" \
    --seed-file="$DIR/munge/munged.seed" >>"$DIR/log/munged.out" 2>&1 ||
    die "munged did not start"
  until [ -S "$DIR/munge/munge.socket" ]; do
    in_time || die "no munge socket in time"
    sleep 0.1
  done

  local port
  port=$(free_port)
  write_conf "$port"
  SLURM_CONF=$DIR/slurm.conf unshare --uts /bin/bash -c \
    'hostname tbctl && exec slurmctld -f "$1" -i' _ "$DIR/slurm.conf" \
    >>"$DIR/log/slurmctld.out" 2>&1 || die "slurmctld did not start"
  local name
  for name in a b; do
    ns=NETNS_$(tr a-z A-Z <<<"$name")
    mkdir -p "$DIR/spool/host$name" "$DIR/tmp.host$name"
    ip netns exec "${!ns}" unshare --uts /bin/bash -c \
      'hostname "$1" && mount --bind "$3" "$4" && mount -t tmpfs -o mode=755 tb-cgroup /sys/fs/cgroup &&
       mkdir /sys/fs/cgroup/systemd && mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd &&
       exec slurmd -f "$2" -N "$1"' _ "host$name" "$DIR/slurm.conf" "$DIR/tmp.host$name" "$DIR/tmp" \
      >>"$DIR/log/slurmd.host$name.out" 2>&1 || die "slurmd on host$name did not start"
  done

  until healthy; do
    in_time || die "the nodes are not idle, or a two-node srun failed, within ${START_TIMEOUT:-60} s"
    sleep 0.5
  done
  {
    echo "export SLURM_CONF=$DIR/slurm.conf"
    echo "export SLURM_CLUSTER_DIR=$DIR"
    echo "export SLURM_CLUSTER_HOSTS=$HOSTS"
    echo "export SLURM_CLUSTER_PARTITION=$PARTITION"
    sed 's/^/export /' "$HOSTS/netns.env"
  } >"$DIR/env"
  log "up in ${SECONDS} s: slurmctld $NETNS_IP_ROOT:$port, hosta $NETNS_IP_A, hostb $NETNS_IP_B"
}

do_stop() {
  [ -d "$DIR" ] || return 0
  local rc=0
  kill_all || rc=1
  wipe 1
  return "$rc"
}

do_status() {
  [ -f "$DIR/env" ] && healthy
}

fixture_main
