#!/usr/bin/env bash
# A real S3 server for the tests: a one-host Ceph (one ceph-mon, one ceph-osd on memstore,
# radosgw with the beast frontend) on 127.0.0.1 only, entirely under DIR, no systemd, no mgr,
# cephx on as in a production cluster (each daemon its own key and capabilities, one
# keyring file under DIR). Needs Debian's ceph-mon, ceph-osd, radosgw and ceph-common (scripts/setup.sh).
#
#   tests/s3/gateway.sh start DIR    # (re)creates DIR, starts the daemons, writes DIR/env
#   tests/s3/gateway.sh status DIR   # 0 when every daemon runs and a signed request succeeds
#   tests/s3/gateway.sh stop DIR     # stops the daemons, removes DIR's state (keeps DIR/log)
#
# By hand:
#   tests/s3/gateway.sh start /tmp/gw && source /tmp/gw/env
#   source tests/lib/s3.sh && s3_curl GET / ; echo      # ListBuckets, signed with curl's SigV4
#   tests/s3/gateway.sh stop /tmp/gw
#
# DIR/env (shell-sourceable) holds S3_TEST_ENDPOINT=http://127.0.0.1:PORT (path style),
# S3_TEST_VHOST_ENDPOINT=http://localhost:PORT (the same port: rgw's DNS name is localhost, so
# it serves http://BUCKET.localhost:PORT/key virtual-hosted; libcurl resolves *.localhost to
# the loopback itself, glibc does not), S3_TEST_TLS_ENDPOINT=https://127.0.0.1:TLSPORT and
# S3_TEST_CA_BUNDLE (the PEM of the CA that signed the gateway's certificate, made at start
# with openssl: a fresh CA key each start, valid 2 days, SAN IP:127.0.0.1 and DNS:localhost;
# both left empty when openssl is missing), AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY, AWS_REGION (us-east-1; rgw takes the region from the request's
# credential scope and accepts any, but us-east-1 is what SDKs default to), S3_GATEWAY_DIR,
# and the daemons' pids (S3_GATEWAY_MON_PID, _OSD_PID, _RGW_PID). Logs: DIR/log/*.log.
#
# START_TIMEOUT (seconds, 90 by default) bounds the whole start.
# Exit codes of start: 0 up; 77 the Ceph packages are missing (a test runner's "skip"),
# but 1 when CI=true; 1 anything else (the daemons' log tails are printed to stderr).
#
# Measured on the 2-core Debian bookworm box (Ceph 16.2.15): `/usr/bin/time -v gateway.sh
# start` takes 3.3 s wall (mon 0 s, osd up 1 s, rgw + user 2 s, warm-up bucket 1 s; with the
# default paxos propose interval of 1 s it took 20 s, rgw creating its 7 pools one by one).
# Peak RSS (VmHWM) after signing_test and fault_proxy_test: ceph-mon 36 MB, ceph-osd 58 MB,
# radosgw 56 MB (~150 MB together; memstore holds objects in RAM, up to 1 GiB); threads
# 25/42/103; DIR ~40 MB (mostly the mon's rocksdb). stop: under 1 s.
set -euo pipefail

readonly ACCESS_KEY=TRAINBENCHTESTKEY000
readonly SECRET_KEY=trainbench/test/secret/0000000000000000000
readonly REGION=us-east-1
readonly MARKER=.trainbench-s3-gateway
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib/skip.sh
source "$HERE/../lib/skip.sh"  # skip_unless: the skip rule
# shellcheck source=../lib/daemons.sh
source "$HERE/../lib/daemons.sh"  # daemon_state_dir, daemon_is_ours, daemon_stop, wipe
# shellcheck source=../lib/ceph.sh
source "$HERE/../lib/ceph.sh"  # ceph_conf, ceph_start_core, start_daemon, die, ...
PY=/usr/bin/python3

fixture_args "gateway" "start|stop|status" "$@"

log() { echo "gateway: $*" >&2; }

do_start() {
  local missing=() b
  for b in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool; do
    command -v "$b" >/dev/null || missing+=("$b")
  done
  # A developer machine without them skips the S3 tests; CI must not (tests/lib/skip.sh).
  skip_unless '[ ${#missing[@]} = 0 ]' \
    "gateway: missing ${missing[*]} (Debian packages ceph-mon ceph-osd radosgw ceph-common; scripts/setup.sh)"

  deadline=$((SECONDS + ${START_TIMEOUT:-90}))
  # A stale DIR from a crashed run: stop what it still runs, then start afresh.
  if [ -d "$DIR" ]; then
    kill_daemons || true
    wipe 0
  fi
  mkdir -p "$DIR"/{log,run,mon,osd,rgw,crash,tmp}
  touch "$DIR/$MARKER"
  : >"$DIR/pids"

  local mon_port rgw_port tls_port
  mon_port=$(free_port)
  rgw_port=$(free_port)
  while [ "$rgw_port" = "$mon_port" ]; do rgw_port=$(free_port); done
  tls_port=$(free_port)
  while [ "$tls_port" = "$mon_port" ] || [ "$tls_port" = "$rgw_port" ]; do tls_port=$(free_port); done
  # tcp_nodelay: without it a GET of a sample stalls ~40 ms (the gateway's Nagle against
  # the client's delayed ACK), on every client: curl too.
  local frontends="beast endpoint=127.0.0.1:$rgw_port tcp_nodelay=1"
  TLS_PORT=
  if make_certificates; then
    TLS_PORT=$tls_port
    frontends+=" ssl_endpoint=127.0.0.1:$tls_port ssl_certificate=$DIR/tls/server.pem"
    frontends+=" ssl_private_key=$DIR/tls/server.key"
  else
    log "no TLS endpoint: openssl could not make a certificate ($(tail -n 2 "$DIR/log/tls.out" 2>/dev/null))"
  fi

  ceph_conf 127.0.0.1 "$mon_port" 127.0.0.0/8
  cat >>"$DIR/ceph.conf" <<EOF

[client]
ms mon client mode = crc
rgw data = $DIR/rgw/\$cluster-\$id
rgw frontends = $frontends
rgw thread pool size = 16
# Host: BUCKET.localhost is virtual-hosted; any other Host (127.0.0.1, localhost) path style.
rgw dns name = localhost
rgw enable usage log = false
rgw dynamic resharding = false
rgw lc debug interval = -1
log file = $DIR/log/\$name.log
EOF

  ceph_start_core 127.0.0.1 "$mon_port" "client.rgw.a --cap mon allow\ rw --cap osd allow\ rwx"
  # radosgw creates its pools as it starts; it needs an osd that is up.
  start_daemon rgw radosgw -c "$DIR/ceph.conf" -f -n client.rgw.a
  log "${SECONDS}s: radosgw started (pid $RGW_PID, port $rgw_port)"

  # The test user (radosgw-admin makes the default realm/zone if radosgw has not yet).
  local made=0
  for _ in $(seq 20); do
    in_time || break
    if timeout -k 5 30 radosgw-admin -c "$DIR/ceph.conf" -n client.admin user create --uid=trainbench \
      --display-name=trainbench --access-key="$ACCESS_KEY" --secret="$SECRET_KEY" \
      >"$DIR/log/user.out" 2>&1; then
      made=1
      break
    fi
    sleep 1
  done
  [ "$made" = 1 ] || die "radosgw-admin user create failed: $(tail -n 5 "$DIR/log/user.out")"

  log "${SECONDS}s: user trainbench created"
  write_env "$rgw_port"
  # Ready when a signed ListBuckets succeeds: at most ~60 s.
  local t0=$SECONDS ok=0
  while ((SECONDS - t0 < 60)); do
    in_time || break
    require_alive rgw "$RGW_PID" || break
    if signed_ok; then
      ok=1
      break
    fi
    sleep 0.5
  done
  [ "$ok" = 1 ] || die "radosgw did not answer a signed request within 60 s"
  if [ -n "$TLS_PORT" ]; then
    tls_ok || die "radosgw did not answer over TLS on 127.0.0.1:$TLS_PORT: $(tail -n 3 "$DIR/log/tls.out")"
  fi
  log "${SECONDS}s: radosgw answers signed requests"
  # The first bucket and multipart upload make radosgw create its last pools: done here, once,
  # rather than in whichever test comes first.
  warm_up || die "radosgw could not create a bucket: $(cat "$DIR/log/warm-up.out")"
  log "${SECONDS}s: up: S3 endpoint http://127.0.0.1:$rgw_port${TLS_PORT:+, https://127.0.0.1:$TLS_PORT} (env in $DIR/env)"
}

# make_certificates: a CA and a server certificate it signs for 127.0.0.1 and localhost, under
# DIR/tls (EC P-256: ~0.1 s). The CA's key is removed once the server's certificate is signed.
make_certificates() {
  command -v openssl >/dev/null || return 1
  mkdir -p "$DIR/tls"
  (
    cd "$DIR/tls" &&
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key \
        -out ca.pem -days 2 -subj "/CN=trainbench test CA" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign &&
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key \
        -out server.csr -subj "/CN=localhost" &&
      printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >server.ext &&
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
        -extfile server.ext -out server.pem &&
      rm -f ca.key ca.srl server.csr
  ) >"$DIR/log/tls.out" 2>&1
}

# tls_ok: the TLS endpoint completes a handshake with the CA's certificate and answers.
tls_ok() {
  local t0=$SECONDS
  while ((SECONDS - t0 < 10)); do
    curl -sS --max-time 5 --cacert "$DIR/tls/ca.pem" -o /dev/null "https://127.0.0.1:$TLS_PORT/" \
      >>"$DIR/log/tls.out" 2>&1 && return 0
    sleep 0.2
  done
  return 1
}

write_env() {
  cat >"$DIR/env.tmp" <<EOF
# Written by tests/s3/gateway.sh start; source it.
S3_GATEWAY_DIR=$DIR
S3_TEST_ENDPOINT=http://127.0.0.1:$1
S3_TEST_VHOST_ENDPOINT=http://localhost:$1
S3_TEST_TLS_ENDPOINT=${TLS_PORT:+https://127.0.0.1:$TLS_PORT}
S3_TEST_CA_BUNDLE=${TLS_PORT:+$DIR/tls/ca.pem}
AWS_ACCESS_KEY_ID=$ACCESS_KEY
AWS_SECRET_ACCESS_KEY=$SECRET_KEY
AWS_REGION=$REGION
S3_GATEWAY_MON_PID=$MON_PID
S3_GATEWAY_OSD_PID=$OSD_PID
S3_GATEWAY_RGW_PID=$RGW_PID
export S3_GATEWAY_DIR S3_TEST_ENDPOINT S3_TEST_VHOST_ENDPOINT S3_TEST_TLS_ENDPOINT S3_TEST_CA_BUNDLE AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_REGION
EOF
  mv "$DIR/env.tmp" "$DIR/env"
}

# A signed ListBuckets answered 200.
signed_ok() {
  (
    # shellcheck disable=SC1091
    source "$DIR/env"
    # shellcheck source=../lib/s3.sh
    source "$HERE/../lib/s3.sh"  # s3_curl alone: a part of the test library
    [ "$(s3_curl GET / -o /dev/null -w '%{http_code}' --max-time 5)" = 200 ]
  ) 2>/dev/null
}

warm_up() {
  (
    # shellcheck disable=SC1091
    source "$DIR/env"
    # shellcheck source=../lib/s3.sh
    source "$HERE/../lib/s3.sh"  # s3_curl alone: a part of the test library
    local b=gateway-warm-up id
    [ "$(s3_curl PUT /$b -o /dev/null -w '%{http_code}')" = 200 ] &&
      [ "$(s3_curl PUT /$b/o --data-binary x -o /dev/null -w '%{http_code}')" = 200 ] &&
      [ "$(s3_curl DELETE /$b/o -o /dev/null -w '%{http_code}')" = 204 ] &&
      s3_curl POST "/$b/m?uploads=" -o "$DIR/tmp/upload" &&
      id=$(sed -n 's:.*<UploadId>\([^<]*\)</UploadId>.*:\1:p' "$DIR/tmp/upload") &&
      [ -n "$id" ] &&
      [ "$(s3_curl DELETE "/$b/m?uploadId=$id" -o /dev/null -w '%{http_code}')" = 204 ] &&
      [ "$(s3_curl DELETE /$b -o /dev/null -w '%{http_code}')" = 204 ]
  ) >"$DIR/log/warm-up.out" 2>&1
}

do_status() {
  [ -f "$DIR/env" ] || {
    echo "gateway: not started in $DIR"
    exit 3
  }
  # shellcheck disable=SC1091
  source "$DIR/env"
  local bad=0 n
  for n in MON OSD RGW; do
    local v=S3_GATEWAY_${n}_PID
    if daemon_is_ours "${!v}"; then echo "${n,,}: running (pid ${!v})"; else
      echo "${n,,}: not running (pid ${!v})"
      bad=1
    fi
  done
  if signed_ok; then echo "s3: $S3_TEST_ENDPOINT answers signed requests"; else
    echo "s3: $S3_TEST_ENDPOINT does not answer"
    bad=1
  fi
  if [ -n "${S3_TEST_TLS_ENDPOINT:-}" ]; then
    if curl -sS --max-time 5 --cacert "$S3_TEST_CA_BUNDLE" -o /dev/null "$S3_TEST_TLS_ENDPOINT/"; then
      echo "tls: $S3_TEST_TLS_ENDPOINT answers (CA $S3_TEST_CA_BUNDLE)"
    else
      echo "tls: $S3_TEST_TLS_ENDPOINT does not answer"
      bad=1
    fi
  fi
  exit "$bad"
}

do_stop() {
  [ -d "$DIR" ] || return 0
  local rc=0
  kill_daemons || rc=1
  wipe 1
  return "$rc"
}

fixture_main
