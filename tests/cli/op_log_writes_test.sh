#!/usr/bin/env bash
# --op-log beyond a run's reads: datagen's log has one PUT per file it wrote (the files in the
# data folder, each PUT that file's size on disk) beside its HEADs and LISTs; a checkpointing
# run's log has the shards' PUTs, adding up to the bytes its summary reports written, and
# their GETs, the bytes read back; a training run with checkpoints logs its reads and its
# checkpoints in one file (each with its own endpoint and threads); an --op-log that cannot
# be written is refused (exit 2) before any work, by datagen and by a checkpointing run.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
cd "$WORK"

# check_log LOG: the header is sai3-bench's, idx runs 0..n-1, no line has an error.
check_log() {
  "$PY" - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), delimiter="\t"))
assert rows[0] == ["idx", "thread", "op", "client_id", "n_objects", "bytes", "endpoint", "file",
                   "error", "start", "first_byte", "end", "duration_ns"], rows[0]
assert sorted(int(r[0]) for r in rows[1:]) == list(range(len(rows) - 1))
assert all(r[8] == "" and int(r[12]) >= 0 for r in rows[1:]), [r for r in rows[1:] if r[8]]
PY
}

w=(resnet50_h100 dataset.num_files_train=6 dataset.num_files_eval=2 dataset.num_samples_per_file=4
  dataset.record_length_bytes=20000 dataset.record_length_bytes_stdev=5000
  "dataset.data_folder=$WORK/d" reader.batch_size=4 train.epochs=1 train.computation_time=0.001
  "output.folder=$WORK/out")
expect_exit 0 datagen.out "$TB" datagen "${w[@]}" --no-progress --op-log "$WORK/dg.tsv.zst"
contains datagen.out "op-log: "
zstd -dcq dg.tsv.zst >dg.tsv
check "datagen's op-log is well formed" check_log dg.tsv
check "datagen's op-log has one PUT per file written, of its size" "$PY" - dg.tsv "$WORK/d" <<'PY'
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
root = sys.argv[2]
# .trainbench.lock is flock'd (the one-writer lock), not written.
on_disk = {os.path.join(d, f): os.path.getsize(os.path.join(d, f))
           for d, _, files in os.walk(root) for f in files if f != ".trainbench.lock"}
puts = [r for r in rows if r["op"] == "PUT"]
assert len(puts) == len(on_disk), (len(puts), sorted(on_disk))
assert {p["file"]: int(p["bytes"]) for p in puts} == on_disk
assert all(p["endpoint"] == root and p["n_objects"] == "1" for p in puts), puts[0]
assert {r["op"] for r in rows} <= {"PUT", "HEAD", "LIST", "DELETE", "GET"}, {r["op"] for r in rows}
PY

# A checkpointing workload (llama3_8b scaled down): PUTs and GETs of its shards.
small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" "checkpoint.checkpoint_folder=$WORK/ck"
  checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=1)
expect_exit 0 ck.out "$TB" run llama3_8b "${small[@]}" --no-progress --op-log "$WORK/ck.tsv"
contains ck.out "op-log: "
check "the checkpointing run's op-log is well formed" check_log ck.tsv
check "checkpoint PUTs and GETs add up to the summary's bytes" "$PY" - ck.tsv "$(newest_summary)" \
  "$WORK/ck" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
s = json.load(open(sys.argv[2]))
ops = {}
records = 0
for r in rows:
    assert r["file"].startswith(sys.argv[3] + "/"), r
    if "/.trainbench_checkpoint.rank" in r["file"]:  # the record of each checkpoint's files
        records += r["op"] == "PUT"
        continue
    ops[r["op"]] = ops.get(r["op"], 0) + int(r["bytes"])
assert records == 2, records
written = sum(c["bytes"] for c in s["checkpoints"] if c["operation"] == "write")
read = sum(c["bytes"] for c in s["checkpoints"] if c["operation"] == "read")
assert written > 0 and ops.get("PUT") == written, (ops, written)
assert read > 0 and ops.get("GET") == read, (ops, read)
PY

# A training run with checkpoints: its reads and its checkpoints in one log.
expect_exit 0 train.out "$TB" run "${w[@]}" workflow.checkpoint=True "checkpoint.checkpoint_folder=$WORK/ck2" \
  model.model_size_bytes=100000 checkpoint.num_checkpoints_read=1 --no-progress \
  --op-log "$WORK/train.tsv.zst"
zstd -dcq train.tsv.zst >train.tsv
check "the training run's op-log is well formed" check_log train.tsv
check "the training run logs its reads and its checkpoints" "$PY" - train.tsv "$(newest_summary)" \
  "$WORK/d/" "$WORK/ck2/" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
s = json.load(open(sys.argv[2]))
data = [r for r in rows if r["file"].startswith(sys.argv[3])]
ckpt = [r for r in rows if r["file"].startswith(sys.argv[4])]
assert len(data) + len(ckpt) == len(rows)
assert len(data) == s["read_latency_ms"]["count"] and all(r["op"] == "GET" for r in data)
written = sum(c["bytes"] for c in s["checkpoints"] if c["operation"] == "write")
assert written > 0 and written % 300000 == 0, s["checkpoints"]  # model.pt and optimizer.pt
assert sum(int(r["bytes"]) for r in ckpt if r["op"] == "PUT" and ".trainbench_checkpoint" not in r["file"]) == written
assert all(r["endpoint"] == sys.argv[4].rstrip("/") for r in ckpt), ckpt[0]
# The checkpoints' thread is not one of the read engine's queues.
assert not {r["thread"] for r in data} & {r["thread"] for r in ckpt}, [r["thread"] for r in rows]
PY

# Refused before any work: no dataset written, no checkpoint.
expect_exit 2 refused.out "$TB" datagen "${w[@]}" "dataset.data_folder=$WORK/d2" --no-progress \
  --op-log /nonexistent/dir/ops.tsv.zst
contains refused.out "--op-log"
check "a refused datagen wrote nothing" test -z "$(find "$WORK/d2" -type f 2>/dev/null)"
expect_exit 2 refused_ck.out "$TB" run llama3_8b "${small[@]}" "checkpoint.checkpoint_folder=$WORK/ck3" \
  --no-progress --op-log /nonexistent/dir/ops.tsv
contains refused_ck.out "--op-log"
check "a refused checkpointing run wrote nothing" test -z "$(find "$WORK/ck3" -type f 2>/dev/null)"
done_ok
