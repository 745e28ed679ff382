#!/usr/bin/env bash
# train --op-log FILE: every JPEG the real data loader reads is a GET line (sai3-bench's
# columns, zstd) naming the image, its bytes the image's size, exactly the images trained on
# (the warm-up step's and the timed steps': the workers read no batch past the last); replayed against a copy of the folder, the same GETs and
# bytes, so a training job's data loading can be tried on another storage. --op-log with
# --data synthetic, or where it cannot be written, is refused (exit 2).
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_unless "python_has PIL numpy" "$PY with Pillow and numpy (scripts/setup.sh installs them)"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
cd "$WORK"
train_make_jpegs jpg
expect_exit 0 train.out "$TB" train "${TRAIN_TINY[@]}" --allow-cpu --steps-per-epoch 3 --workers 2 \
  --data "$WORK/jpg" --op-log "$WORK/train.tsv.zst" --output "$WORK/tres" --interval 0.05
contains train.out "op-log: "
zstd -dcq train.tsv.zst >train.txt
# The training's own record of its reads (issue 46.6): the summary's bytes and reads, and the
# time series' per-interval reads and MB/s, add up to the op-log's GETs.
check "summary and time series count the loader's reads" "$PY" - train.txt "$(ls -d "$WORK"/tres/train-*/)" <<'PY'
import csv, json, sys
gets = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
folder = sys.argv[2]
io = json.load(open(folder + "/summary.json"))["trainbench"]["io"]
assert io["reads"] == len(gets) and io["bytes_read"] == sum(int(g["bytes"]) for g in gets), (io, len(gets))
assert io["read_latency_ms"]["count"] == len(gets) and io["read_latency_ms"]["p50"] > 0, io
rows = list(csv.DictReader(open(folder + "/timeseries.csv")))
assert sum(int(r["reads"]) for r in rows) == len(gets), [r["reads"] for r in rows]
mb = sum(float(r["io_MB_per_second"]) * float(r["interval_s"]) for r in rows)
assert abs(mb * 1e6 - io["bytes_read"]) <= 0.01 * io["bytes_read"] + 1000, (mb, io["bytes_read"])
assert any(float(r["read_latency_p50_ms"]) > 0 for r in rows if int(r["reads"]) > 0), rows
print("train I/O:", io["reads"], "reads,", io["bytes_read"], "bytes in", len(rows), "rows")
PY
check "one GET per image read, naming it, its size" "$PY" - train.txt "$WORK/jpg" \
  "$(json_last_line train.out 'd["radix_metrics"]["total_images"]')" <<'PY'
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
images = {os.path.join(dp, f): os.path.getsize(os.path.join(dp, f))
          for dp, _, fs in os.walk(sys.argv[2]) for f in fs}
# The timed steps' images and the warm-up step's batch of 4 (TRAIN_TINY), no more.
assert int(sys.argv[3]) == 12 and len(rows) == 12 + 4, (len(rows), sys.argv[3])
for r in rows:
    assert r["op"] == "GET" and r["error"] == "", r
    assert r["file"] in images and int(r["bytes"]) == images[r["file"]], r
PY
cp -r jpg copy
expect_exit 0 replay.out "$TB" replay train.tsv.zst --target "$WORK/copy" --no-progress --output res
check "replayed against the copy: the same GETs and bytes" "$PY" - \
  "$(json_last_line replay.out 'd["trainbench"]["results"]')/summary.json" train.txt <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
(get,) = s["ops"]
assert s["errors"] == 0 and get["replayed"]["count"] == len(rows), (get, len(rows))
assert get["replayed"]["bytes"] == sum(int(r["bytes"]) for r in rows), get
PY
expect_exit 2 synth.out "$TB" train "${TRAIN_TINY[@]}" --allow-cpu --steps-per-epoch 1 --op-log "$WORK/s.tsv"
contains synth.out "synthetic"
expect_exit 2 bad.out "$TB" train "${TRAIN_TINY[@]}" --allow-cpu --data "$WORK/jpg" --op-log /nonexistent/x.tsv
contains bad.out "--op-log"
done_ok
