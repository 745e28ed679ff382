#!/usr/bin/env bash
# The servers the stage tests fetch from, all on 127.0.0.1 under DIR, no systemd:
# - nginx as the origin (DIR/www), serving ranges with sendfile from the page cache, and on a
#   second port a "director" that answers every request with 307 to the origin (as a cache
#   federation's redirector does);
# - squid as a reverse-proxy cache in front of the origin (the mirror; it forwards ranges);
# - /slow/NAME on the origin: the same files at 40 MB/s per connection;
# - the data: DIR/www/big.bin (STAGE_BIG_MIB MiB, 1024 by default: sparse, with random
#   bytes at a few offsets so its checksum means something) and DIR/www/small.bin
#   (STAGE_SMALL_MIB, 96 by default, random: the fault tests push it through a Python proxy).
# Needs Debian's nginx (or nginx-light) and squid (scripts/setup.sh).
#
#   tests/stage/servers.sh start DIR   # writes DIR/env (ports, paths, sha256s)
#   tests/stage/servers.sh stop DIR    # stops them (keeps DIR/log)
#
# DIR/env: STAGE_ORIGIN=http://127.0.0.1:P, STAGE_DIRECTOR=http://127.0.0.1:P2 (307s),
# STAGE_MIRROR=http://127.0.0.1:P3 (squid), STAGE_DOWN_MIRROR (a port nothing listens on),
# STAGE_WWW, STAGE_BIG_SHA256, STAGE_SMALL_SHA256, STAGE_BIG_BYTES, STAGE_SMALL_BYTES,
# STAGE_ACCESS_LOG (nginx: "port "request" status body_bytes_sent "range""), STAGE_SQUID_LOG.
# Exit codes of start: 0 up; 77 nginx or squid missing (the skip rule, tests/lib/skip.sh:
# 1 when CI=true); 1 otherwise.
set -euo pipefail
# shellcheck source=../lib/skip.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/skip.sh"  # skip_unless: the skip rule
PY=/usr/bin/python3
[ $# -eq 2 ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
cmd=$1
case $2 in /*) DIR=$2 ;; *) DIR=$PWD/$2 ;; esac
DIR=${DIR%/}
[ -n "$DIR" ] && [ "$DIR" != / ] || { echo "servers: refusing DIR '$2'" >&2; exit 2; }
log() { echo "servers: $*" >&2; }
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# stop_pid FILE: TERM the process whose pid FILE holds, if it runs, and wait (bounded).
stop_pid() {
  local file=$1 pid i
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

stop() {
  stop_pid "$DIR/run/nginx.master"
  stop_pid "$DIR/run/squid.main"
  rm -f "$DIR/www/big.bin" "$DIR/www/small.bin"
}

# wait_http URL: until it answers (bounded: 10 s).
wait_http() {
  local i
  for i in $(seq 100); do
    curl -s -o /dev/null -r 0-0 --max-time 1 "$1" && return 0
    sleep 0.1
  done
  return 1
}

start() {
  skip_unless "command -v nginx && command -v squid" \
    "stage servers: nginx or squid is missing (bash scripts/setup.sh installs them)"
  stop
  rm -rf "$DIR/run" "$DIR/squid"
  mkdir -p "$DIR/www" "$DIR/log" "$DIR/run/nginx-tmp" "$DIR/squid"
  local big_mib=${STAGE_BIG_MIB:-1024} small_mib=${STAGE_SMALL_MIB:-96} off
  # Sparse, with 1 MiB of random bytes at a few offsets: reads come from the page cache (holes
  # cost no disk), and a wrong chunk anywhere near them changes the checksum.
  truncate -s "${big_mib}M" "$DIR/www/big.bin"
  for off in 0 7 $((big_mib / 3)) $((big_mib / 2 + 3)) $((big_mib - 1)); do
    dd if=/dev/urandom of="$DIR/www/big.bin" bs=1M seek="$off" count=1 conv=notrunc status=none
  done
  dd if=/dev/urandom of="$DIR/www/small.bin" bs=1M count="$small_mib" status=none
  local origin director mirror down user=""
  origin=$(free_port)
  director=$(free_port)
  mirror=$(free_port)
  down=$(free_port)  # nothing listens there
  [ "$(id -u)" -eq 0 ] && user="user root root;"
  cat >"$DIR/run/nginx.conf" <<CONF
$user
worker_processes 2;
pid $DIR/run/nginx.pid;
error_log $DIR/log/nginx_error.log warn;
events { worker_connections 512; }
http {
  log_format tb '\$server_port "\$request" \$status \$body_bytes_sent "\$http_range"';
  access_log $DIR/log/access.log tb;
  client_body_temp_path $DIR/run/nginx-tmp/body;
  proxy_temp_path $DIR/run/nginx-tmp/proxy;
  fastcgi_temp_path $DIR/run/nginx-tmp/fastcgi;
  uwsgi_temp_path $DIR/run/nginx-tmp/uwsgi;
  scgi_temp_path $DIR/run/nginx-tmp/scgi;
  default_type application/octet-stream;
  sendfile on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:$origin;
    root $DIR/www;
    # The same files at a known rate per connection: a kill lands mid-transfer at a time.
    location /slow/ { alias $DIR/www/; limit_rate 40m; }
  }
  server {
    listen 127.0.0.1:$director;
    location / { return 307 http://127.0.0.1:$origin\$request_uri; }
  }
}
CONF
  nginx -p "$DIR/run" -c "$DIR/run/nginx.conf" -g 'daemon off;' >"$DIR/log/nginx.out" 2>&1 &
  echo $! >"$DIR/run/nginx.master"
  local squid_user=""
  if [ "$(id -u)" -eq 0 ]; then
    # squid will not run as root: its files belong to its own user.
    squid_user="cache_effective_user proxy"
    chown -R proxy "$DIR/squid"
  fi
  cat >"$DIR/run/squid.conf" <<CONF
http_port 127.0.0.1:$mirror accel defaultsite=127.0.0.1:$origin no-vhost
cache_peer 127.0.0.1 parent $origin 0 no-query no-digest no-netdb-exchange originserver name=origin
cache_peer_access origin allow all
http_access allow all
$squid_user
cache_mem 32 MB
maximum_object_size_in_memory 512 KB
cache_dir null /tmp
pid_filename $DIR/squid/squid.pid
access_log stdio:$DIR/squid/access.log squid
cache_log $DIR/squid/cache.log
cache_store_log none
logfile_rotate 0
shutdown_lifetime 0 seconds
icp_port 0
htcp_port 0
netdb_filename none
pinger_enable off
CONF
  squid -N -f "$DIR/run/squid.conf" >"$DIR/log/squid.out" 2>&1 &
  echo $! >"$DIR/run/squid.main"
  if ! wait_http "http://127.0.0.1:$origin/small.bin" || ! wait_http "http://127.0.0.1:$mirror/small.bin"; then
    log "the servers did not come up; logs:"
    tail -n 20 "$DIR"/log/* "$DIR/squid/cache.log" >&2 2>/dev/null || true
    stop
    exit 1
  fi
  local big_sha small_sha
  big_sha=$(sha256sum "$DIR/www/big.bin" | cut -d' ' -f1)
  small_sha=$(sha256sum "$DIR/www/small.bin" | cut -d' ' -f1)
  cat >"$DIR/env.tmp" <<ENV
STAGE_ORIGIN=http://127.0.0.1:$origin
STAGE_DIRECTOR=http://127.0.0.1:$director
STAGE_MIRROR=http://127.0.0.1:$mirror
STAGE_DOWN_MIRROR=http://127.0.0.1:$down
STAGE_WWW=$DIR/www
STAGE_BIG_SHA256=$big_sha
STAGE_SMALL_SHA256=$small_sha
STAGE_BIG_BYTES=$(stat -c %s "$DIR/www/big.bin")
STAGE_SMALL_BYTES=$(stat -c %s "$DIR/www/small.bin")
STAGE_ACCESS_LOG=$DIR/log/access.log
STAGE_SQUID_LOG=$DIR/squid/access.log
ENV
  mv "$DIR/env.tmp" "$DIR/env"
  log "up: origin $origin, director $director, squid $mirror"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
