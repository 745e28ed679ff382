#!/usr/bin/env bash
# run --op-log FILE: every read in sai3-bench's op-log columns, zstd-compressed for .tsv.zst
# (read back with the zstd tool) or plain for .tsv; one line per read the run counted, the bytes
# its summary counts, each naming a dataset file, with start <= end and the duration between
# them; a SIGKILL mid-run leaves a log that decompresses up to its last batch; an --op-log
# that cannot be written is refused (exit 2) before any read.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"

w=(resnet50_h100 dataset.num_files_train=16 dataset.num_samples_per_file=8 dataset.record_length_bytes=50000
   dataset.record_length_bytes_stdev=10000 dataset.data_folder="$WORK/d" reader.batch_size=4 train.epochs=2
   train.computation_time=0.001 output.folder="$WORK/out")
expect_exit 0 "$WORK/datagen.out" "$TB" datagen "${w[@]}" --no-progress

for log in ops.tsv.zst ops.tsv; do
  rm -rf "$WORK/out"
  expect_exit 0 "$WORK/run.out" "$TB" run "${w[@]}" --no-progress --op-log "$WORK/$log"
  contains "$WORK/run.out" "op-log: "
  if [ "$log" = ops.tsv.zst ]; then
    zstd -dcq "$WORK/$log" >"$WORK/ops.txt"
  else
    cp "$WORK/$log" "$WORK/ops.txt"
  fi
  check "$log: the op-log matches the run" "$PY" - "$WORK/ops.txt" "$(newest_summary)" "$WORK/d/train" <<'PY'
import csv, datetime, json, os, sys
rows = list(csv.reader(open(sys.argv[1]), delimiter="\t"))
head = rows[0]
assert head == ["idx", "thread", "op", "client_id", "n_objects", "bytes", "endpoint", "file",
                "error", "start", "first_byte", "end", "duration_ns"], head
ops = [dict(zip(head, r)) for r in rows[1:]]
s = json.load(open(sys.argv[2]))
assert len(ops) == s["read_latency_ms"]["count"], (len(ops), s["read_latency_ms"]["count"])
assert sum(int(o["bytes"]) for o in ops) == s["cache"]["bytes_read"]
assert sorted(int(o["idx"]) for o in ops) == list(range(len(ops)))
files = {os.path.join(sys.argv[3], f) for f in os.listdir(sys.argv[3])}
t = lambda x: datetime.datetime.strptime(x[:26] + "Z", "%Y-%m-%dT%H:%M:%S.%fZ")
for o in ops:
    assert o["op"] == "GET" and o["n_objects"] == "1" and o["error"] == "", o
    assert o["file"] in files, o["file"]
    start, end = t(o["start"]), t(o["end"])
    assert start <= end and int(o["duration_ns"]) > 0, o
    assert abs((end - start).total_seconds() * 1e9 - int(o["duration_ns"])) < 2000, o
PY
done

# SIGKILL mid-run: what was logged before decompresses.
"$TB" run "${w[@]}" train.epochs=50 train.computation_time=0.01 --no-progress \
  --op-log "$WORK/killed.tsv.zst" >"$WORK/killed.out" 2>&1 &
pid=$!
for _ in $(seq 200); do
  [ "$(stat -c %s "$WORK/killed.tsv.zst" 2>/dev/null || echo 0)" -gt 2000 ] && break
  sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
zstd -dcq "$WORK/killed.tsv.zst" >"$WORK/killed.txt" 2>/dev/null || true
check "a killed run's op-log decompresses up to its last batch" \
  test "$(grep -c $'\tGET\t' "$WORK/killed.txt")" -ge 100

expect_exit 2 "$WORK/refused.out" "$TB" run "${w[@]}" --no-progress --op-log /nonexistent/dir/ops.tsv.zst
contains "$WORK/refused.out" "--op-log"
done_ok
