# shellcheck shell=bash
# Part of the test library, for the fixtures that start a one-host Ceph cluster: the S3
# gateway (s3/gateway.sh: mon, osd, radosgw on 127.0.0.1) and CephFS (cephfs/cluster.sh: mon,
# osd, mds on a bridge the network-namespace hosts reach). Both run one ceph-mon and one
# ceph-osd on memstore, entirely under DIR, no systemd, no mgr, cephx on as in a production
# cluster (each daemon its own key and capabilities, one keyring file under DIR).
#
# The caller sets DIR (daemons.sh's daemon_state_dir), MARKER (the file that says DIR is the
# fixture's own, for daemons.sh's wipe), PY, deadline (SECONDS at which a start gives up) and defines log MESSAGE.
# ceph_start_core sets MON_PID and OSD_PID; start_daemon NAME sets NAME_PID.

# free_port [ADDR]: a TCP port free on ADDR (127.0.0.1 by default).
free_port() {
  "$PY" -c 'import socket, sys; s=socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' \
    "${1:-127.0.0.1}"
}

# The daemons' log tails, for a failed start.
dump_logs() {
  local f
  for f in "$DIR"/log/*.log "$DIR"/log/*.out; do
    [ -s "$f" ] || continue
    echo "----- tail of $f -----" >&2
    tail -n 40 "$f" >&2
  done
}

# Processes still running with DIR's ceph.conf that no pid file names (a ceph or radosgw-admin
# left behind by a start that was killed, a ceph-fuse of a host).
leftovers() {
  local p
  for p in /proc/[0-9]*; do
    tr '\0' '\n' 2>/dev/null <"$p/cmdline" | grep -qxF -- "$DIR/ceph.conf" && echo "${p#/proc/}"
  done
  return 0
}

# Stops the recorded daemons in the reverse order of their start (each still has the daemons
# it talks to while it shuts down).
kill_daemons() {
  local pids pid rc=0
  pids=()
  [ -f "$DIR/pids" ] && mapfile -t pids < <(tac "$DIR/pids")
  for pid in "${pids[@]}" $(leftovers); do
    daemon_stop "$pid" 10 || rc=1
  done
  return "$rc"
}

ceph_cli() { timeout -k 5 20 ceph -c "$DIR/ceph.conf" --connect-timeout 10 "$@"; }

# start_daemon NAME COMMAND...: runs it in the background, records its pid (the job's pid is
# the daemon's: it runs in the foreground, -f) and sets NAME_PID.
start_daemon() {
  local name=$1
  shift
  setsid "$@" </dev/null >"$DIR/log/$name.out" 2>&1 &
  local pid=$!
  echo "$pid" >>"$DIR/pids"
  eval "${name^^}_PID=$pid"
}

# die MESSAGE: a failed start: the message, the daemons' log tails, the daemons stopped.
die() {
  log "$*"
  rm -f "$DIR/env"
  dump_logs
  kill_daemons || true
  exit 1
}

# Every wait of a start checks the deadline.
in_time() { ((SECONDS < deadline)); }

require_alive() {
  local name=$1 pid=$2
  if ! kill -0 "$pid" 2>/dev/null; then
    log "$name (pid $pid) exited"
    return 1
  fi
}

# ceph_conf ADDR MON_PORT NETWORK: the [global], [mon] and [osd] sections of DIR/ceph.conf
# (the caller appends its [client] or [mds] sections).
ceph_conf() {
  local addr=$1 mon_port=$2 network=$3 fsid
  fsid=$("$PY" -c 'import uuid; print(uuid.uuid4())')
  cat >"$DIR/ceph.conf" <<EOF
[global]
fsid = $fsid
mon host = v2:$addr:$mon_port
mon initial members = a
public addr = $addr
cluster addr = $addr
public network = $network
ms bind ipv6 = false
ms bind msgr1 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $DIR/keyring
run dir = $DIR/run
crash dir = $DIR/crash
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
log to stderr = false
err to stderr = true
mon cluster log file = $DIR/log/cluster.log
pid file =
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
ms async op threads = 2
# Few threads and small caches: the box has 2 cores.
rocksdb cache size = 16777216
debug ms = 0
debug rocksdb = 0

[mon]
mon data = $DIR/mon/\$cluster-\$id
mon data avail crit = 1
mon data avail warn = 2
mon allow pool delete = true
# Commit map changes sooner than every 1 s: pools are created one after another at start.
paxos propose interval = 0.1

[osd]
osd data = $DIR/osd/\$cluster-\$id
osd objectstore = memstore
memstore device bytes = ${CEPH_OSD_BYTES:-1073741824}
osd op num shards = 1
osd op num threads per shard = 2
osd crush update on start = true
osd max object name len = 460
osd max object namespace len = 64
osd memory target = 536870912
osd heartbeat grace = 60
EOF
}

# ceph_wait NAME PID TRIES PAUSE PATTERN ARGS...: asks `ceph ARGS` every PAUSE seconds, at most
# TRIES times, until its answer matches PATTERN (grep); 1 when it never does, the daemon NAME
# (PID) died or the start ran out of time.
ceph_wait() {
  local name=$1 pid=$2 tries=$3 pause=$4 pattern=$5
  shift 5
  for _ in $(seq "$tries"); do
    in_time || return 1
    require_alive "$name" "$pid" || return 1
    ceph_cli "$@" 2>/dev/null | grep -q "$pattern" && return 0
    sleep "$pause"
  done
  return 1
}

# ceph_start_core ADDR MON_PORT KEY...: the cephx keys of the mon, the admin (ceph CLI), osd.0
# and each KEY ("client.rgw.a --cap mon allow\ rw ..."), then the mon and one osd, waited for
# until the osd is up. DIR/ceph.conf must exist.
ceph_start_core() {
  local addr=$1 mon_port=$2 key fsid
  shift 2
  fsid=$(sed -n 's/^fsid = //p' "$DIR/ceph.conf")
  : >"$DIR/log/mkfs.out"
  for key in "mon. --cap mon allow\ *" \
    "client.admin --cap mon allow\ * --cap osd allow\ * --cap mgr allow\ * --cap mds allow\ *" \
    "osd.0 --cap mon allow\ profile\ osd --cap osd allow\ *" "$@"; do
    eval "ceph-authtool $([ -f "$DIR/keyring" ] || echo --create-keyring) \"\$DIR/keyring\" --gen-key -n $key" \
      >>"$DIR/log/mkfs.out" 2>&1 || die "ceph-authtool failed for ${key%% *}"
  done
  chmod 600 "$DIR/keyring"

  # The mon: a monmap with one mon, mkfs, then run (in the foreground, in the background).
  monmaptool --create --addv a "[v2:$addr:$mon_port]" --fsid "$fsid" "$DIR/monmap" >>"$DIR/log/mkfs.out" 2>&1 ||
    die "monmaptool failed"
  ceph-mon -c "$DIR/ceph.conf" --mkfs -i a --monmap "$DIR/monmap" --keyring "$DIR/keyring" >>"$DIR/log/mkfs.out" 2>&1 ||
    die "ceph-mon --mkfs failed"
  start_daemon mon ceph-mon -c "$DIR/ceph.conf" -f -i a
  log "${SECONDS}s: ceph-mon started (pid $MON_PID, $addr:$mon_port)"

  # The osd: registered with the mon, mkfs on memstore, then run.
  local osd_uuid osd_id
  osd_uuid=$("$PY" -c 'import uuid; print(uuid.uuid4())')
  osd_id=
  for _ in $(seq 20); do
    in_time || break
    require_alive mon "$MON_PID" || break
    osd_id=$(ceph_cli osd new "$osd_uuid" 2>>"$DIR/log/mkfs.out") && break
    osd_id=
    sleep 0.5
  done
  [ -n "$osd_id" ] || die "the mon did not answer 'osd new'"
  mkdir -p "$DIR/osd/ceph-$osd_id"
  ceph-osd -c "$DIR/ceph.conf" -i "$osd_id" --mkfs --osd-uuid "$osd_uuid" >>"$DIR/log/mkfs.out" 2>&1 ||
    die "ceph-osd --mkfs failed"
  start_daemon osd ceph-osd -c "$DIR/ceph.conf" -f -i "$osd_id"
  log "${SECONDS}s: ceph-osd started (pid $OSD_PID)"

  ceph_wait osd "$OSD_PID" 60 0.5 "^osd.$osd_id up" osd dump || die "osd.$osd_id did not come up"
  log "${SECONDS}s: osd.$osd_id up"
}
