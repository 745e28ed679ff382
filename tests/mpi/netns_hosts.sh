#!/usr/bin/env bash
# netns_hosts.sh: two fake "hosts" for Open MPI tests, made of network namespaces.
#
# Usage
#   As a command (root only):
#     tests/mpi/netns_hosts.sh up DIR [SLOTS]   # make hosts, print the mpirun flags
#     tests/mpi/netns_hosts.sh down DIR         # remove what `up DIR` made (idempotent)
#     tests/mpi/netns_hosts.sh gc               # remove leftovers of dead runs (any DIR)
#     tests/mpi/netns_hosts.sh flags DIR        # print the mpirun flags again
#   As a library:
#     . tests/mpi/netns_hosts.sh
#     rc=0; netns_up "$dir" 1 || rc=$?     # sets NETNS_MPIRUN_ARGS (bash array)
#     skip_unless "[ $rc != 77 ]" "cannot make network namespaces here"   # tests/lib/skip.sh
#     at_exit 'netns_down "$dir"'                  # tests/lib/common.sh
#     timeout 60 mpirun "${NETNS_MPIRUN_ARGS[@]}" -np 2 "$TRAINBENCH" run ...
#   The flags are also written to DIR/mpirun.args (one argument per line:
#   `mapfile -t args <DIR/mpirun.args`) and DIR/mpirun.env (OMPI_MCA_* form).
#   Nothing is copied: the namespaces share the mount namespace, so
#   build/trainbench and DIR are the same paths inside both "hosts".
#
# What `up DIR` makes (names derived from a prefix, default tbn<pid of caller>,
# so concurrent runs do not clash and `gc` can find leftovers of dead callers):
#   - namespaces  <P>a ("hosta", 10.77.X.1) and <P>b ("hostb", 10.77.X.2),
#     each with lo up and one end of a veth pair (named eth0 inside);
#   - bridge <P>br in the ROOT namespace (10.77.X.254/24) that both veths'
#     other ends (<P>ra, <P>rb) are enslaved to. X is the first 10.77.X.0/24
#     not already used by an address in the root namespace (picked under a
#     flock, so two concurrent `up`s get different subnets);
#   - DIR/hostfile ("10.77.X.1 slots=N" / "10.77.X.2 slots=N": addresses,
#     see "Host names" below), DIR/rsh (the launch agent), DIR/netns.env
#     (state for `down`), DIR/mpirun.args, DIR/mpirun.env.
#   Processes in the namespaces call gethostname() and get hosta / hostb.
#
# Why a bridge in the root namespace (and mpirun in the root namespace):
#   mpirun (the HNP) listens for the orteds' OOB TCP connections, and the
#   orteds live in the namespaces, so the HNP needs an address the
#   namespaces can reach. Giving the root namespace an end (the bridge) lets
#   the test run a plain `mpirun` from its own shell, with neither "host"
#   being the local node: both ranks are launched through DIR/rsh, i.e. both
#   go through the same orted-over-"ssh" path as a real two-node job, and the
#   ranks can also reach services the test starts in the root namespace on
#   10.77.X.254 (if those listen on that address or 0.0.0.0; 127.0.0.1 of the
#   root namespace is NOT reachable from inside). Running mpirun inside host A
#   would also work with a plain veth pair, but then rank 0 would be a local
#   child of mpirun (no orted, no rsh) and the caller would have to wrap
#   mpirun in `ip netns exec`.
#
# The rsh agent (DIR/rsh host command...):
#   Open MPI calls it like ssh: `DIR/rsh hosta orted -mca ess "env" ...`, the
#   remote command split into words that ssh would join with spaces and give
#   to the remote user's shell (Open MPI already quotes for that shell, e.g.
#   -mca orte_hnp_uri "1234.0;tcp://10.77.0.254:4567"). The agent does the
#   same: joins "$@" with spaces and runs it with `bash -c` inside
#   `ip netns exec <ns> unshare --uts`, after `hostname hosta` (the UTS
#   namespace gives the orted and its ranks their own host name). It accepts
#   either the address or hosta/hostb as HOST. Like ssh it starts from a
#   clean environment (PATH, LD_LIBRARY_PATH, HOME, USER, LOGNAME, SHELL,
#   TMPDIR, LANG only), so a test sees what a real cluster does: variables
#   the ranks need must be forwarded with `mpirun -x VAR`. (Open MPI itself
#   works either way: passing the whole environment through was tried, and
#   mpirun hands the orteds nothing from its environment that breaks them.)
#   Every call is logged to DIR/rsh.log.
#
# Host names (the one setting that mattered for time):
#   With "hosta"/"hostb" in the hostfile, mpirun resolves both names through
#   DNS (8 lookups each, seen with strace). They do not exist, which costs
#   nothing here (the resolver answers NXDOMAIN at once), but with a resolver
#   that does not answer (nameserver unreachable, as on offline machines)
#   `mpirun -np 2 hostname` took 49 s instead of 0.3 s. /etc/hosts is not
#   ours to edit, so the hostfile names the hosts by address: no lookups at
#   all, mpirun's node names (--display-map, error messages) are 10.77.X.1 /
#   10.77.X.2, while the ranks' gethostname() and MPI_Get_processor_name()
#   still say hosta / hostb. The namespaces have no default route, so a
#   lookup made inside them fails at once (network unreachable) instead of
#   waiting for a resolver.
#
# Open MPI 4.1 settings (all in NETNS_MPIRUN_ARGS) and why:
#   Needed (without them nothing starts):
#   --hostfile DIR/hostfile        the two hosts, by address (see above).
#   --mca plm_rsh_agent DIR/rsh    instead of ssh (there is no sshd here);
#                                  a broken agent shows as "ORTE was unable
#                                  to reliably start one or more daemons".
#   --allow-run-as-root            tests run as root; otherwise mpirun stops
#                                  with "mpirun has detected an attempt to
#                                  run as root" (or set OMPI_ALLOW_RUN_AS_ROOT=1
#                                  and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1).
#   Not needed here (each was removed in turn and the self-test's Allreduce
#   still passed in the same time) but kept, so that the job cannot depend on
#   anything outside the two hosts and stays as a real two-node run would be:
#   --mca plm_rsh_no_tree_spawn 1  the HNP launches every orted itself (tree
#                                  spawn also worked: an orted in host A
#                                  calls DIR/rsh, which reaches host B too).
#   --mca oob_tcp_if_include SUBNET  the HNP advertises only the bridge
#                                  address (its URI otherwise also lists
#                                  eth0's, which the namespaces cannot route
#                                  to and skip at once: no default route).
#   --mca btl tcp,self, --mca btl_tcp_if_include SUBNET  MPI traffic only
#                                  over TCP on the veths (the namespaces have
#                                  nothing else but lo, which tcp excludes by
#                                  default; sm/vader would be used only
#                                  between ranks of the same host).
#   --oversubscribe                more ranks than slots do not fail.
#   Harmless noise: mpirun sometimes prints "plm:rsh: Warning: setpgid(...)
#   failed in parent with errno=Permission denied(13)" (the agent had already
#   exec'd; the child sets its own process group).
#
# Requires: root (or CAP_NET_ADMIN+CAP_SYS_ADMIN), iproute2, util-linux unshare.
# netns_up returns 77 when namespaces cannot be made (callers: skip_unless, tests/lib/skip.sh).

NETNS_LOCK=${NETNS_LOCK:-/run/trainbench-netns.lock}
NETNS_STATE=netns.env

# netns_log MSG...: to stderr.
netns_log() { echo "netns_hosts: $*" >&2; }

# netns_can: 0 when this process may make network namespaces.
netns_can() {
  [ "$(id -u)" = 0 ] || return 1
  command -v ip >/dev/null && command -v unshare >/dev/null || return 1
  local probe="tbnp$$x" # <= 15 characters (interface names)
  ip netns add "$probe" 2>/dev/null || return 1
  ip netns del "$probe" 2>/dev/null
  unshare --uts true 2>/dev/null || return 1
  ip link add "$probe" type bridge 2>/dev/null || return 1
  ip link del "$probe" 2>/dev/null
  return 0
}

# netns_pick_subnet: print the first X in 0..254 with no 10.77.X.* address in
# the root namespace.
netns_pick_subnet() {
  local used x
  used=$(ip -4 -o addr show 2>/dev/null | grep -o ' 10\.77\.[0-9]*\.' | cut -d. -f3 | sort -un)
  for x in $(seq 0 254); do
    if ! grep -qx "$x" <<<"$used"; then
      echo "$x"
      return 0
    fi
  done
  return 1
}

# netns_write_rsh DIR [MOUNT_NS_DIR]: the launch agent (see the header). With MOUNT_NS_DIR
# the commands also enter the host's own mount namespace, MOUNT_NS_DIR/hosta or /hostb (a
# file system mounted on that host alone: tests/cephfs/cluster.sh), through nsenter; without
# it, `ip netns exec` gives each command a fresh copy of this one's.
netns_write_rsh() {
  local dir=$1 mount_ns=${2:-} enter
  if [ -n "$mount_ns" ]; then
    enter="nsenter --net=/run/netns/\$ns --mount=$mount_ns/\$name"
  else
    enter='ip netns exec "$ns"'
  fi
  cat >"$dir/rsh" <<EOF
#!/usr/bin/env bash
# Open MPI launch agent for the netns hosts of $dir (written by netns_hosts.sh).
# Called like ssh: rsh [ssh options] HOST COMMAND...
. "$dir/$NETNS_STATE"
while [ \$# -gt 0 ]; do
  case \$1 in
    -x|-X|-t|-T|-n|-q|-A|-a) shift ;;
    -o|-p|-l|-i|-F) shift 2 ;;
    *) break ;;
  esac
done
host=\${1:?usage: rsh HOST COMMAND...}
shift
case \$host in
  hosta|"\$NETNS_IP_A") ns=\$NETNS_A; name=hosta ;;
  hostb|"\$NETNS_IP_B") ns=\$NETNS_B; name=hostb ;;
  *) echo "rsh(netns): unknown host \$host" >&2; exit 255 ;;
esac
cmd="\$*"
echo "\$(date +%T.%N) \$host: \$cmd" >>"$dir/rsh.log"
# ssh runs the command through the login shell in a fresh environment.
exec env -i PATH="\$PATH" \${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="\$LD_LIBRARY_PATH"} \\
  HOME="\${HOME:-/root}" USER="\$(id -un)" LOGNAME="\$(id -un)" SHELL=/bin/bash \\
  \${TMPDIR:+TMPDIR="\$TMPDIR"} \${LANG:+LANG="\$LANG"} \\
  $enter unshare --uts /bin/bash -c 'hostname "\$0" && exec /bin/bash -c "\$1"' "\$name" "\$cmd"
EOF
  chmod 755 "$dir/rsh"
}

# netns_mpirun_args DIR: set NETNS_MPIRUN_ARGS from DIR's state.
netns_mpirun_args() {
  local dir=$1
  # shellcheck disable=SC1090
  . "$dir/$NETNS_STATE" || return 1
  NETNS_MPIRUN_ARGS=(
    --hostfile "$dir/hostfile"
    --mca plm_rsh_agent "$dir/rsh"
    --mca plm_rsh_no_tree_spawn 1
    --mca oob_tcp_if_include "$NETNS_SUBNET"
    --mca btl "tcp,self"
    --mca btl_tcp_if_include "$NETNS_SUBNET"
    --allow-run-as-root
    --oversubscribe
  )
}

# netns_print_flags DIR: the flags, one shell-quoted line.
netns_print_flags() {
  netns_mpirun_args "$1" || return 1
  printf '%q ' "${NETNS_MPIRUN_ARGS[@]}"
  echo
}

# netns_up DIR [SLOTS] [PREFIX]: make the two hosts (see the header).
# Returns 77 when namespaces cannot be made here, 1 on other failures (after
# removing what it made), 0 with NETNS_MPIRUN_ARGS set.
netns_up() {
  local dir=${1:?netns_up DIR [SLOTS] [PREFIX]} slots=${2:-1} prefix=${3:-tbn$$}
  if ! netns_can; then
    netns_log "cannot make network namespaces here (need root, ip netns, unshare --uts, bridge)"
    return 77
  fi
  mkdir -p "$dir" || return 1
  dir=$(cd "$dir" && pwd) || return 1
  if [ -e "$dir/$NETNS_STATE" ]; then
    netns_log "$dir is already up (run down first)"
    return 1
  fi
  local x rc=0 k=0 base=$prefix lockfd
  exec {lockfd}>"$NETNS_LOCK" || return 1
  flock -w 30 "$lockfd" || { exec {lockfd}>&-; return 1; }
  # A second `up` by the same process: tbn<pid>_1, tbn<pid>_2, ...
  while [ -e "/run/netns/${prefix}a" ] || ip link show "${prefix}br" >/dev/null 2>&1; do
    k=$((k + 1))
    prefix=${base}_$k
  done
  x=$(netns_pick_subnet) || { exec {lockfd}>&-; netns_log "no free 10.77.X.0/24"; return 1; }
  # State first, so that `down` can clean up after a crash half way.
  cat >"$dir/$NETNS_STATE" <<EOF
NETNS_PREFIX=$prefix
NETNS_A=${prefix}a
NETNS_B=${prefix}b
NETNS_BR=${prefix}br
NETNS_VA=${prefix}ra
NETNS_VB=${prefix}rb
NETNS_SUBNET=10.77.$x.0/24
NETNS_IP_A=10.77.$x.1
NETNS_IP_B=10.77.$x.2
NETNS_IP_ROOT=10.77.$x.254
NETNS_DIR=$dir
EOF
  # shellcheck disable=SC1090
  . "$dir/$NETNS_STATE"
  {
    ip link add "$NETNS_BR" type bridge &&
      ip addr add "$NETNS_IP_ROOT/24" dev "$NETNS_BR" &&
      ip link set "$NETNS_BR" up
  } || rc=1
  exec {lockfd}>&- # the subnet is now taken by an address
  local side ns va ip
  for side in a b; do
    [ $rc = 0 ] || break
    if [ $side = a ]; then ns=$NETNS_A va=$NETNS_VA ip=$NETNS_IP_A; else ns=$NETNS_B va=$NETNS_VB ip=$NETNS_IP_B; fi
    {
      ip netns add "$ns" &&
        ip -n "$ns" link set lo up &&
        ip link add "$va" type veth peer name eth0 netns "$ns" &&
        ip link set "$va" master "$NETNS_BR" &&
        ip link set "$va" up &&
        ip -n "$ns" addr add "$ip/24" dev eth0 &&
        ip -n "$ns" link set eth0 up
    } || rc=1
  done
  if [ $rc != 0 ]; then
    netns_log "up failed; removing what was made"
    netns_down "$dir"
    return 1
  fi
  printf '%s slots=%s\n' "$NETNS_IP_A" "$slots" "$NETNS_IP_B" "$slots" >"$dir/hostfile"
  netns_write_rsh "$dir"
  netns_mpirun_args "$dir"
  printf '%s\n' "${NETNS_MPIRUN_ARGS[@]}" >"$dir/mpirun.args"
  {
    echo "OMPI_MCA_orte_default_hostfile=$dir/hostfile"
    echo "OMPI_MCA_plm_rsh_agent=$dir/rsh"
    echo "OMPI_MCA_plm_rsh_no_tree_spawn=1"
    echo "OMPI_MCA_oob_tcp_if_include=$NETNS_SUBNET"
    echo "OMPI_MCA_btl=tcp,self"
    echo "OMPI_MCA_btl_tcp_if_include=$NETNS_SUBNET"
    echo "OMPI_MCA_rmaps_base_oversubscribe=1"
    echo "OMPI_ALLOW_RUN_AS_ROOT=1"
    echo "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
  } >"$dir/mpirun.env"
  return 0
}

# netns_kill_ns NS: kill every process in namespace NS (SIGKILL), wait a bit.
netns_kill_ns() {
  local ns=$1 pids
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(ip netns pids "$ns" 2>/dev/null) || return 0
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086
    kill -9 $pids 2>/dev/null
    sleep 0.1
  done
}

# netns_down_prefix PREFIX: remove namespaces, links and processes of PREFIX.
netns_down_prefix() {
  local p=$1 ns link
  for ns in "${p}a" "${p}b"; do
    if [ -e "/run/netns/$ns" ]; then
      netns_kill_ns "$ns"
      ip netns del "$ns" 2>/dev/null || netns_log "could not delete namespace $ns"
    fi
  done
  # veth ends go with their peer's namespace; delete explicitly in case not.
  for link in "${p}ra" "${p}rb" "${p}br"; do
    if ip link show "$link" >/dev/null 2>&1; then
      # (the kernel may remove a veth end between the show and the del)
      ip link del "$link" 2>/dev/null || ! ip link show "$link" >/dev/null 2>&1 ||
        netns_log "could not delete link $link"
    fi
  done
}

# netns_down DIR: remove what netns_up DIR made. Idempotent.
netns_down() {
  local dir=${1:?netns_down DIR}
  [ -f "$dir/$NETNS_STATE" ] || return 0
  local NETNS_PREFIX
  NETNS_PREFIX=$(sed -n 's/^NETNS_PREFIX=//p' "$dir/$NETNS_STATE")
  [ -n "$NETNS_PREFIX" ] && netns_down_prefix "$NETNS_PREFIX"
  rm -f "$dir/$NETNS_STATE" "$dir/hostfile" "$dir/rsh" "$dir/mpirun.args" "$dir/mpirun.env" "$dir/rsh.log"
  rmdir "$dir" 2>/dev/null # if up made it and nothing else is in it
  return 0
}

# netns_gc: remove leftovers (namespaces tbn<pid>a/b, links tbn<pid>*) whose
# <pid> is no longer a running process (a test killed with -9).
netns_gc() {
  local names n pid
  names=$( {
    ip netns list 2>/dev/null | awk '{print $1}'
    ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1
  } | sed -n 's/^tbn\([0-9][0-9]*\)\(_[0-9]*\)\{0,1\}\(a\|b\|ra\|rb\|br\)$/\1\2/p' | sort -u)
  for n in $names; do
    pid=${n%%_*}
    if [ ! -d "/proc/$pid" ]; then
      netns_log "removing leftovers of dead run tbn$n"
      netns_down_prefix "tbn$n"
    fi
  done
  return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  case ${1:-} in
    up)
      [ $# -ge 2 ] || { echo "usage: $0 up DIR [SLOTS]" >&2; exit 2; }
      # Named after this shell's parent (the caller), not this short-lived
      # script, so `gc` leaves it alone while the caller lives.
      netns_up "$2" "${3:-1}" "tbn$PPID" || exit $?
      netns_print_flags "$2"
      ;;
    down)
      [ $# -ge 2 ] || { echo "usage: $0 down DIR" >&2; exit 2; }
      netns_down "$2"
      ;;
    flags)
      [ $# -ge 2 ] || { echo "usage: $0 flags DIR" >&2; exit 2; }
      netns_print_flags "$2"
      ;;
    gc) netns_gc ;;
    *)
      echo "usage: $0 up DIR [SLOTS] | down DIR | flags DIR | gc" >&2
      exit 2
      ;;
  esac
fi
