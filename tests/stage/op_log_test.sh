#!/usr/bin/env bash
# stage --op-log: every request as a line of sai3-bench's op-log (zstd TSV): the HEAD of the
# object, and each ranged GET's attempt with the bytes it brought, the source that served it
# and its error (the down mirror's refused attempt names it). The successful GETs add up to
# the file, one a chunk, on at most --streams threads. `oplog` profiles it, and a replay
# against a folder holding the file reads the same bytes. A refused stage writes no log.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers
cd "$WORK"
chunk=$((8 << 20))

expect_exit 0 "$WORK/out" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" \
  --mirror "$STAGE_DOWN_MIRROR" --mirror "$STAGE_MIRROR" --sha256 "$STAGE_BIG_SHA256" \
  --chunk-size 8MiB --streams 4 --no-progress --output "$WORK/results" --op-log "$WORK/stage.tsv.zst"
contains "$WORK/out" "op-log: "
check "the op-log decompresses with zstd" zstd -q -d -f "$WORK/stage.tsv.zst" -o "$WORK/stage.tsv"
check "the op-log's lines" "$PY" - "$WORK/stage.tsv" "$STAGE_BIG_BYTES" "$chunk" \
  "$STAGE_MIRROR" "$STAGE_DOWN_MIRROR" "$STAGE_ORIGIN" <<'PY'
import csv, sys
path, size, chunk, mirror, down, origin = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:]
rows = list(csv.DictReader(open(path), delimiter="\t"))
cols = ["idx", "thread", "op", "client_id", "n_objects", "bytes", "endpoint", "file", "error",
        "start", "first_byte", "end", "duration_ns"]
assert list(rows[0].keys()) == cols, list(rows[0].keys())
heads = [r for r in rows if r["op"] == "HEAD"]
gets = [r for r in rows if r["op"] == "GET"]
assert len(heads) + len(gets) == len(rows), set(r["op"] for r in rows)
origin_root = origin.split("/")[0] + "//" + origin.split("/")[2]
ok_heads = [h for h in heads if not h["error"]]
assert ok_heads and ok_heads[0]["file"] == "big.bin" and ok_heads[0]["endpoint"] == origin_root, heads
ok = [g for g in gets if not g["error"]]
assert sum(int(g["bytes"]) for g in ok) == size, (sum(int(g["bytes"]) for g in ok), size)
assert len(ok) == (size + chunk - 1) // chunk, len(ok)
assert all(g["file"] == "big.bin" and g["endpoint"] == mirror.rstrip("/") for g in ok), ok[0]
refused = [g for g in gets if g["endpoint"] == down.rstrip("/")]
assert refused and all(g["error"] and int(g["bytes"]) == 0 for g in refused), refused
assert len({g["thread"] for g in gets}) <= 4, {g["thread"] for g in gets}
assert all(int(g["duration_ns"]) > 0 and g["first_byte"] for g in ok), ok[0]
print(f"{len(heads)} HEAD, {len(ok)} GETs of {size} bytes, {len(refused)} refused by the down mirror")
PY

expect_exit 0 "$WORK/profile" "$TRAINBENCH" oplog "$WORK/stage.tsv.zst"
cat "$WORK/profile"
contains "$WORK/profile" "GET"

# Replayed against a folder that holds the file: the same GETs, the same bytes.
mkdir -p "$WORK/copy"
cp "$WORK/dest/big.bin" "$WORK/copy/big.bin"
expect_exit 0 "$WORK/replay" "$TRAINBENCH" replay "$WORK/stage.tsv.zst" --target "$WORK/copy" \
  --mode parallel --concurrency 4 --ops GET --output "$WORK/replayed"
summary=$(find "$WORK/replayed" -name summary.json | head -1)
check "the replay read the stage's bytes" "$PY" - "$summary" "$WORK/stage.tsv" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))
rows = [r for r in csv.DictReader(open(sys.argv[2]), delimiter="\t") if r["op"] == "GET"]
want = sum(int(r["bytes"]) for r in rows)
(get,) = s["ops"]
got = get["replayed"]
print(got)
assert get["op"] == "GET" and got["count"] == len(rows), (get, len(rows))
assert got["bytes"] == want and got["errors"] == 0, (got, want)
PY

# A stage refused before any work leaves no op-log.
expect_exit 2 "$WORK/refused" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest2" \
  --streams 0 --op-log "$WORK/refused.tsv.zst"
check "no op-log from a refused stage" [ ! -e "$WORK/refused.tsv.zst" ]
echo "OK: $checks checks"
