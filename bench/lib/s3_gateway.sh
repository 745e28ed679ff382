# Shared by bench/s3_get.sh, bench/s3_read_vs_s3dlio.sh and bench/startup_s3.sh: sourced, not run. Needs ROOT (the
# checkout) and the test library's s3_curl (tests/lib/s3.sh).

# bench_gateway NAME WORK: the loopback Ceph RADOS Gateway a bench talks to: the running one
# in S3_GATEWAY_DIR (tests/s3/gateway.sh start DIR), else one started in WORK/gw and stopped
# when the bench exits. Exports the AWS_* environment trainbench and s3_curl read; refuses an
# endpoint that is not on 127.0.0.1.
bench_gateway() {
  local name=$1 work=$2
  bench_started_gw=
  trap '[ -z "$bench_started_gw" ] || bash "$ROOT/tests/s3/gateway.sh" stop "$bench_started_gw" >/dev/null 2>&1 || true' EXIT
  if [ -n "${S3_GATEWAY_DIR:-}" ] && [ -f "$S3_GATEWAY_DIR/env" ]; then
    source "$S3_GATEWAY_DIR/env"
  else
    bench_started_gw=$work/gw
    echo "$name: starting a gateway in $bench_started_gw" >&2
    timeout 300 bash "$ROOT/tests/s3/gateway.sh" start "$bench_started_gw" >/dev/null
    source "$bench_started_gw/env"
  fi
  case $S3_TEST_ENDPOINT in
    http://127.0.0.1:*) ;;
    *) echo "$name: endpoint not on 127.0.0.1" >&2; exit 1 ;;
  esac
  export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_REGION
}

# gw_cpu: CPU seconds so far of radosgw + ceph-osd (0 when their pids are unknown).
gw_cpu() {
  local t=0 pid
  for pid in ${S3_GATEWAY_RGW_PID:-} ${S3_GATEWAY_OSD_PID:-}; do
    [ -r "/proc/$pid/stat" ] || continue
    t=$((t + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')))
  done
  echo "$t $(getconf CLK_TCK)" | awk '{printf "%.3f", $1 / $2}'
}
