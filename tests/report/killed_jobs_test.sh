#!/usr/bin/env bash
# Every kind of job keeps what it measured when killed with SIGKILL midway: its results folder
# holds summary.json from the start (valid JSON, complete false, a stop_reason saying the job
# did not end) and the time-series rows sampled until the kill; `trainbench report` draws it
# as incomplete with no "undefined" on the page; the rerun resumes where the kind can
# (datagen keeps its finished files) and `stage --report` counts a killed stage. Kinds:
# datagen --output, replay --output, a sai3-bench config, stage --output (from a slow origin on
# loopback), train --output (when built with LibTorch).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# killed_job NAME OUTPUT_FOLDER COMMAND...: starts the job, waits for 3 time-series rows in
# its results folder, kills it with SIGKILL, and checks the folder and its page.
killed_job() {
  local name=$1 output=$2
  shift 2
  "$@" >"$name.out" 2>&1 &
  local pid=$! dir="" rows=0
  for _ in $(seq 600); do
    dir=$(ls -d "$output"/*/ 2>/dev/null | head -n 1) || true
    if [ -n "$dir" ] && [ -f "$dir/timeseries.csv" ]; then rows=$(($(wc -l <"$dir/timeseries.csv") - 1)); fi
    [ "$rows" -ge 3 ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$name.out"; fail "$name ended before it was killed"; }
    sleep 0.1
  done
  [ "$rows" -ge 3 ] || { cat "$name.out"; fail "$name: no results folder with rows"; }
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  rows=$(($(wc -l <"$dir/timeseries.csv") - 1))
  check "$name: summary.json says the job did not end" "$PY" - "$dir/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is False and "did not end" in s["stop_reason"], s
assert s["started"] and s["timeseries_interval_s"] > 0, s
PY
  check "$name: $rows time-series rows kept" test "$rows" -ge 3
  "$TB" report "$dir" >"$name.report" 2>&1 || { cat "$name.report"; fail "$name: report failed"; }
  chromium_dump_dom "$dir/report.html" "$name.dom"
  if grep -E "Uncaught|CONSOLE.*Error" "$WORK/chromium.log"; then fail "$name: a script error on the page"; fi
  check "$name: the page draws it as incomplete, with no undefined" "$PY" - "$name.dom" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
text = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(script|style).*?</\1>", "", dom))
assert 'data-report-ready="true"' in dom, "the script did not finish"
assert "incomplete" in text and "did not end" in text, text[:800]
assert "undefined" not in text and "NaN" not in text, text[:1500]
PY
  KILLED_DIR=$dir
}

# datagen: 24 files of resnet50's records, paced by one thread; the rerun keeps what was done.
w=(resnet50_h100 dataset.num_files_train=24 dataset.num_samples_per_file=400 "dataset.data_folder=$WORK/d")
killed_job datagen "$WORK/dg" "$TB" datagen "${w[@]}" --threads 1 --output "$WORK/dg" --interval 0.1 --no-progress
expect_exit 0 dg2.out "$TB" datagen "${w[@]}" --no-progress
done_before=$(sed -n 's/.*(\([0-9]*\) written, \([0-9]*\) already complete).*/\2/p' dg2.out)
check "the rerun kept the files finished before the kill ($done_before)" test "${done_before:-0}" -ge 1

# replay: a run's op-log at a twentieth of its pace.
expect_exit 0 run.out "$TB" run "${w[@]}" reader.batch_size=8 train.computation_time=0.01 train.epochs=1 \
  "output.folder=$WORK/out" --no-progress --op-log "$WORK/ops.tsv.zst"
killed_job replay "$WORK/rp" "$TB" replay ops.tsv.zst --mode timed --speed 0.05 --output "$WORK/rp" \
  --interval 0.1 --no-progress

# A sai3-bench config: prepare, then its op mix for a minute.
mkdir -p "$WORK/objects"
killed_job sai3 "$WORK/s3" "$TB" run "$SRC/tests/data/sai3-bench/resnet50_1-host.yaml" \
  "target=file://$WORK/objects/" duration=60s concurrency=2 "output.folder=$WORK/s3" \
  perf_log.interval=0.1s prepare.ensure_objects.0.count=48 prepare.ensure_objects.0.size_spec.mean=16384 \
  prepare.ensure_objects.0.size_spec.std_dev=8192 prepare.ensure_objects.0.size_spec.min=4096 \
  prepare.ensure_objects.0.size_spec.max=65536 prepare.directory_structure.width=4 \
  prepare.directory_structure.files_per_dir=3 --no-progress

# stage: 64 MiB from a slow origin on loopback (about 4 MB/s, Range honoured, bounded to 90 s);
# `stage --report` counts the killed job, as not successful.
"$PY" - "$WORK/slow.port" <<'PY' &
import http.server, re, sys, threading, time
SIZE = 64 << 20
CHUNK = bytes(range(256)) * 256  # 64 KiB
class Slow(http.server.BaseHTTPRequestHandler):
    def span(self):
        m = re.match(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if not m:
            return 0, SIZE - 1, False
        end = int(m.group(2)) if m.group(2) else SIZE - 1
        return int(m.group(1)), min(end, SIZE - 1), True
    def head(self):
        first, last, ranged = self.span()
        self.send_response(206 if ranged else 200)
        self.send_header("Content-Length", str(last - first + 1))
        self.send_header("Accept-Ranges", "bytes")
        if ranged:
            self.send_header("Content-Range", f"bytes {first}-{last}/{SIZE}")
        self.end_headers()
        return last - first + 1
    def do_HEAD(self):
        self.head()
    def do_GET(self):
        left = self.head()
        while left > 0:
            n = min(left, len(CHUNK))
            self.wfile.write(CHUNK[:n])
            left -= n
            time.sleep(0.016)
    def log_message(self, *args):
        pass
class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # the killed client's broken pipe is expected
server = Server(("127.0.0.1", 0), Slow)
open(sys.argv[1], "w").write(str(server.server_address[1]))
threading.Timer(90, server.shutdown).start()  # bounded, whatever happens to the test
server.serve_forever()
PY
slow=$!
for _ in $(seq 50); do
  [ -s "$WORK/slow.port" ] && break
  sleep 0.1
done
killed_job stage "$WORK/st" "$TB" stage "http://127.0.0.1:$(cat "$WORK/slow.port")/big.bin" "$WORK/staged" \
  --streams 1 --output "$WORK/st" --interval 0.1 --no-progress
kill "$slow" 2>/dev/null || true
wait "$slow" 2>/dev/null || true
expect_exit 0 campaign.out "$TB" stage --report "$WORK/st"
check "stage --report counts the killed stage" grep -qE "^  jobs +1$" campaign.out
check "... as not successful" grep -qE "^  successful +0$" campaign.out

# train: a CPU training of many steps.
if train_has_libtorch; then
  killed_job train "$WORK/tr" "$TB" train "${TRAIN_TINY[@]}" --allow-cpu --steps-per-epoch 100000 \
    --output "$WORK/tr" --interval 0.1 --no-progress
else
  echo "train: built without LibTorch, not run"
fi
done_ok
