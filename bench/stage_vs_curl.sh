#!/usr/bin/env bash
# One large object from nginx on loopback, through a fault proxy that cuts connections:
# `trainbench stage` against `curl --retry 10 -C -` run in a loop until the file is whole
# (and `aria2c -x 8` when it is installed: scripts/setup.sh adds it), in one run, one table.
#
#   bash bench/stage_vs_curl.sh                 # 2 GiB, 1% cut chance per MiB, then no faults
#   OBJECT_MIB=512 CUT_PER_MIB=0.02 bash bench/stage_vs_curl.sh
#
# The object: tests/stage/servers.sh's big.bin (sparse, with random bytes at a few offsets,
# so a wrong byte anywhere near them changes its SHA-256), served by nginx with sendfile.
# Between the client and nginx: tests/s3/fault_proxy.py --cut-per-mib P, which cuts a
# response after a number of body bytes drawn from an exponential distribution of mean 1/P
# MiB: faults in proportion to the bytes moved, so a client making one 2 GiB request and one
# making 256 of 8 MiB meet about as many cuts. Each client runs three times: with the faults,
# through the same proxy without them (the Python proxy's own limits are in both), and
# straight from nginx.
# Per client: wall time; the bytes nginx sent for the object (its access log: body bytes of
# every response, cut ones included) and of those the wasted bytes (sent beyond the object's
# size: thrown away by the client and fetched again); CPU (user + sys of the client and its
# children, /usr/bin/time); the cuts it met (the proxy's count). Each client's time includes
# verifying the file: trainbench checks --sha256 as it stages, curl and aria2c are followed by
# sha256sum (a download is not done until it is known to be right). Ratios are each client's
# over trainbench's in the same scenario.
#
# Env: OBJECT_MIB (2048), CUT_PER_MIB (0.01), STREAMS (8: trainbench --streams, aria2c -x),
# CHUNK (8MiB: trainbench --chunk-size), SEED (1), TRAINBENCH (build/trainbench),
# WORK (/tmp/trainbench-stage-vs-curl: servers, the files, logs; about 2 x OBJECT_MIB on disk).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TB=$(realpath "${TRAINBENCH:-build/trainbench}")
PY=/usr/bin/python3
: "${OBJECT_MIB:=2048}" "${CUT_PER_MIB:=0.01}" "${STREAMS:=8}" "${CHUNK:=8MiB}" "${SEED:=1}"
W=${WORK:-/tmp/trainbench-stage-vs-curl}
object_mib=$OBJECT_MIB cut_per_mib=$CUT_PER_MIB streams=$STREAMS chunk=$CHUNK seed=$SEED
[ -x "$TB" ] || { echo "stage_vs_curl: no trainbench at $TB (build it first)" >&2; exit 1; }
mkdir -p "$W"
rm -rf "$W/out" "$W/results"
mkdir -p "$W/out"

proxy_pid=""
stop_all() {
  [ -z "$proxy_pid" ] || { kill -TERM "$proxy_pid" 2>/dev/null || true; wait "$proxy_pid" 2>/dev/null || true; }
  bash "$ROOT/tests/stage/servers.sh" stop "$W/servers" >/dev/null 2>&1 || true
  rm -rf "$W/out"
}
trap stop_all EXIT
echo "stage_vs_curl: starting nginx with a $object_mib MiB object in $W/servers" >&2
STAGE_BIG_MIB=$object_mib STAGE_SMALL_MIB=1 bash "$ROOT/tests/stage/servers.sh" start "$W/servers" >/dev/null
# shellcheck disable=SC1091
source "$W/servers/env"
size=$STAGE_BIG_BYTES

# start_proxy CUT_PER_MIB: a fresh fault proxy in front of nginx (request numbering from 0).
start_proxy() {
  [ -z "$proxy_pid" ] || { kill -TERM "$proxy_pid" 2>/dev/null || true; wait "$proxy_pid" 2>/dev/null || true; }
  rm -f "$W/proxy.port" "$W/proxy.json"
  "$PY" "$ROOT/tests/s3/fault_proxy.py" --upstream "127.0.0.1:${STAGE_ORIGIN##*:}" \
    --port-file "$W/proxy.port" --stats "$W/proxy.json" --seed "$seed" \
    --cut-per-mib "$1" --max-seconds 3600 &
  proxy_pid=$!
  timeout 10 bash -c "until [ -s '$W/proxy.port' ]; do sleep 0.1; done" ||
    { echo "stage_vs_curl: fault_proxy did not start" >&2; exit 1; }
  url=http://127.0.0.1:$(cat "$W/proxy.port")/big.bin
}

# origin_bytes MARK: body bytes nginx sent for /big.bin since access log line MARK.
origin_bytes() {
  awk -v mark="$1" -v port="${STAGE_ORIGIN##*:}" \
    'NR > mark && $1 == port && index($3, "/big.bin") == 1 { s += $6 } END { printf "%.0f\n", s }' \
    "$STAGE_ACCESS_LOG"
}

# The clients: each fetches $url to the file $2/big.bin.
client_trainbench() {
  "$TB" stage "$url" "$1" --streams "$streams" --chunk-size "$chunk" --sha256 "$STAGE_BIG_SHA256" \
    --no-progress --output "$W/results" >"$W/trainbench.log"
}
client_curl() {
  local tries=0
  until curl -sS --retry 10 -C - -o "$1/big.bin" "$url" 2>>"$W/curl.err"; do
    tries=$((tries + 1))
    [ "$tries" -lt 1000 ] || return 1
  done
  [ "$(sha256sum <"$1/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]
}
client_aria2c() {
  aria2c -q -x "$streams" -s "$streams" --max-tries=0 --retry-wait=1 --file-allocation=none \
    --allow-overwrite=true --auto-file-renaming=false -d "$1" -o big.bin "$url" &&
    [ "$(sha256sum <"$1/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]
}
export -f client_trainbench client_curl client_aria2c
export TB W url streams chunk STAGE_BIG_SHA256

tools=(trainbench curl)
if command -v aria2c >/dev/null; then tools+=(aria2c); else
  echo "stage_vs_curl: aria2c is not installed (scripts/setup.sh adds it): curl and trainbench only" >&2
fi

# cuts: the proxy's count of cut responses so far (0 straight from nginx).
cuts() {
  [ "$scenario" = direct ] && echo 0 && return
  "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["cut"])' "$W/proxy.json"
}

rows=()
for scenario in "cut $cut_per_mib/MiB" "proxy, no cut" "direct"; do
  case $scenario in
    cut*) start_proxy "$cut_per_mib" ;;
    proxy*) start_proxy 0 ;;
    *) url=$STAGE_ORIGIN/big.bin ;;
  esac
  for tool in "${tools[@]}"; do
    echo "stage_vs_curl: $tool, $scenario" >&2
    dest=$W/out/$tool
    rm -rf "$dest"
    mkdir -p "$dest"
    cuts0=$(cuts)
    mark=$(wc -l <"$STAGE_ACCESS_LOG")
    export url
    /usr/bin/time -f "%e %U %S" -o "$W/time" bash -c "client_$tool $dest" ||
      { echo "stage_vs_curl: $tool failed" >&2; tail -n 5 "$W/$tool.log" "$W/curl.err" 2>/dev/null >&2; exit 1; }
    sleep 1  # nginx logs a cut response once it notices the closed connection
    sent=$(origin_bytes "$mark")
    cuts1=$(cuts)
    got=$(sha256sum "$dest/big.bin" | cut -d' ' -f1)
    [ "$got" = "$STAGE_BIG_SHA256" ] || { echo "stage_vs_curl: $tool's file has SHA-256 $got, not $STAGE_BIG_SHA256" >&2; exit 1; }
    read -r wall user sys <"$W/time"
    rows+=("$scenario|$tool|$wall|$user|$sys|$sent|$((cuts1 - cuts0))")
    rm -rf "$dest"
  done
done

echo "stage_vs_curl: $object_mib MiB object ($size bytes), trainbench --streams $streams --chunk-size $chunk, seed $seed"
"$PY" - "$size" "${rows[@]}" <<'PY'
import sys
size = int(sys.argv[1])
rows = [r.split("|") for r in sys.argv[2:]]
base = {r[0]: r for r in rows if r[1] == "trainbench"}
print("%-15s %-11s %8s %8s %10s %10s %7s %5s %7s %8s %7s" % (
    "scenario", "tool", "wall s", "MB/s", "origin MB", "wasted MB", "CPU s", "cuts",
    "wall ÷", "wasted ÷", "CPU ÷"))
for scen, tool, wall, user, sys_, sent, cuts in rows:
    wall, cpu, sent = float(wall), float(user) + float(sys_), int(sent)
    b = base[scen]
    bwall, bcpu, bwasted = float(b[2]), float(b[3]) + float(b[4]), int(b[5]) - size
    wasted = sent - size
    ratio = lambda x, y: "%.2f" % (x / y) if y > 0 else ("-" if x == 0 else "inf")
    print("%-15s %-11s %8.2f %8.1f %10.1f %10.1f %7.2f %5s %7s %8s %7s" % (
        scen, tool, wall, size / 1e6 / wall, sent / 1e6, wasted / 1e6, cpu, cuts,
        ratio(wall, bwall), ratio(wasted, bwasted), ratio(cpu, bcpu)))
PY
