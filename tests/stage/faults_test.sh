#!/usr/bin/env bash
# Faults between stage and the origin (tests/s3/fault_proxy.py in front of nginx): 503s,
# connections cut mid-range and stalls are retried from the byte they stopped at (a stall is
# cut after --stall-timeout);
# the bytes are the origin's and the retries' cost shows in the account. A mirror that only
# answers 503 is demoted after 3 failures in a row; a source that never answers ends the
# stage with exit 1 naming the object and range.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers

# 1. 503s, cuts and stalls (the first 60 requests draw faults; later ones pass).
fault_proxy_start "127.0.0.1:${STAGE_ORIGIN##*:}" "$WORK/faults.json" --seed 7 --slowdown 0.15 --cut 0.15 --stall 0.1 \
  --stall-s 20 --fault-requests 60
t0=$(now)
expect_exit 0 "$WORK/out1" "$TRAINBENCH" stage "$FAULT_PROXY_ENDPOINT/small.bin" "$WORK/dest" \
  --chunk-size 2MiB --streams 4 --stall-timeout 1 --max-attempts 20 --sha256 "$STAGE_SMALL_SHA256" \
  --no-progress --output "$WORK/results"
secs=$(elapsed "$t0")
fault_proxy_stop
cat "$WORK/out1"
cat "$WORK/faults.json"
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest/small.bin" | cut -d' ' -f1)" = "$STAGE_SMALL_SHA256" ]
check "the proxy did cut, stall and refuse" json "$WORK/faults.json" \
  'd["cut"] > 0 and d["stalled"] > 0 and d["slowdown"] > 0 or sys.exit(1)'
check "retries counted" [ "$(json_last_line "$WORK/out1" 'd["trainbench_stage"]["retries"] >= 3')" = True ]
check "their time is wasted time" [ "$(json_last_line "$WORK/out1" 'd["trainbench_stage"]["retry_wasted_s"] > 0.5')" = True ]
# A cut or stalled range resumes from the bytes it got (as curl -C - does): none thrown away.
check "cut ranges resume" [ "$(json_last_line "$WORK/out1" 'd["trainbench_stage"]["retry_wasted_bytes"]')" = 0 ]
stage_check_account "$WORK/out1" "$secs"

# 2. A mirror answering 503 to everything: demoted after 3 in a row; the origin serves.
fault_proxy_start "127.0.0.1:${STAGE_ORIGIN##*:}" "$WORK/bad_mirror.json" --slowdown 1.0
expect_exit 0 "$WORK/out2" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/dest2" \
  --mirror "$FAULT_PROXY_ENDPOINT" --chunk-size 8MiB --streams 2 --sha256 "$STAGE_SMALL_SHA256" \
  --no-progress --output "$WORK/results"
fault_proxy_stop
cat "$WORK/out2"
contains "$WORK/out2" "mirror $FAULT_PROXY_ENDPOINT demoted for the rest of this stage (3 failures in a row, the last: HTTP 503"
check "staged through the origin" [ "$(sha256sum <"$WORK/dest2/small.bin" | cut -d' ' -f1)" = "$STAGE_SMALL_SHA256" ]
check "the origin served every byte" [ "$(json "$(stage_summary_of "$WORK/out2")" \
  "[s['bytes'] for s in d['sources'] if s['role'] == 'origin'][0]")" = "$STAGE_SMALL_BYTES" ]

# 3. An origin that only answers 503: exit 1 after --max-attempts, naming object and range.
fault_proxy_start "127.0.0.1:${STAGE_ORIGIN##*:}" "$WORK/bad_origin.json" --slowdown 1.0 --no-fault-first 1
expect_exit 1 "$WORK/out3" "$TRAINBENCH" stage "$FAULT_PROXY_ENDPOINT/small.bin" "$WORK/dest3" \
  --max-attempts 3 --no-progress --output "$WORK/results"
fault_proxy_stop
cat "$WORK/out3"
contains "$WORK/out3" "cannot fetch small.bin bytes "
contains "$WORK/out3" "3 failed attempts, the last at"
# The table counts what the error counts, in the same words (issue 34: "3 attempt(s)" beside
# "3 retries").
contains "$WORK/out3" " failed attempts, "
check "no other word for them" [ "$(grep -v '^{' "$WORK/out3" | grep -c "retries\|attempt(s)")" = 0 ]
contains "$WORK/out3" "HTTP 503"
check "nothing under the final name" [ ! -e "$WORK/dest3/small.bin" ]
check "results marked incomplete" [ "$(json "$(stage_summary_of "$WORK/out3")" 'd["complete"]')" = False ]

# 4. An origin that ignores Range and cuts every body: full Content-Length, half the body,
# close. Every attempt is a cut body (said as such, with the byte), and all are counted.
"$PY" - "$WORK/cutter.port" <<'PY' &
import http.server, sys, threading
BODY = bytes(range(256)) * 4096  # 1 MiB
class Cut(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
    def do_GET(self):
        self.do_HEAD()
        self.wfile.write(BODY[: len(BODY) // 2])
        self.close_connection = True
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Cut)
open(sys.argv[1], "w").write(str(server.server_address[1]))
threading.Timer(60, server.shutdown).start()  # bounded, whatever happens to the test
server.serve_forever()
PY
cutter=$!
for _ in $(seq 50); do
  [ -s "$WORK/cutter.port" ] && break
  sleep 0.1
done
expect_exit 1 "$WORK/out4" "$TRAINBENCH" stage "http://127.0.0.1:$(cat "$WORK/cutter.port")/cut.bin" \
  "$WORK/dest4" --max-attempts 3 --no-progress --output "$WORK/results"
kill "$cutter" 2>/dev/null || true
wait "$cutter" 2>/dev/null || true
cat "$WORK/out4"
contains "$WORK/out4" "3 failed attempts, the last at"
contains "$WORK/out4" "body cut short at byte 524288"
check "not called a server that ignores Range" [ "$(grep -c "ignores Range" "$WORK/out4")" = 0 ]
done_ok
