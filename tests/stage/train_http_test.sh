#!/usr/bin/env bash
# train --data http://origin/x.tar trains on one tar on a web server read in place, no staging
# copy: its members indexed by ranged reads of their headers (1 MiB a GET: this small tar in
# one), then each image a ranged GET of exactly its bytes at its offset in the tar (nginx's
# access log shows every Range), several in flight per decode worker; 2 epochs of the 12
# images read each image twice, the op-log names each GET. Refused or failed before training:
# a folder URL without --stage-to (a web server has no listing; exit 2), a missing tar (exit
# 2), an origin that does not answer (exit 1, naming it). tests/s3/train_s3_test.sh does the
# same over S3.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_unless "python_has PIL numpy" "$PY with Pillow and numpy (scripts/setup.sh installs them)"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
stage_use_servers
cd "$WORK"
name=train-http-$$.tar
at_exit 'rm -f "$STAGE_WWW/$name"'
train_make_jpegs jpg
tar -C jpg -cf "$STAGE_WWW/$name" n00 n01

# The tiny model, without its warm-up step: 12 images, batch 4, 3 steps = one epoch each.
tiny=()
for ((i = 0; i < ${#TRAIN_TINY[@]}; i++)); do
  if [ "${TRAIN_TINY[i]}" = --warmup-steps ]; then i=$((i + 1)); else tiny+=("${TRAIN_TINY[i]}"); fi
done
tiny+=(--warmup-steps 0 --allow-cpu --epochs 2 --steps-per-epoch 3)

mark=$(stage_log_mark)
expect_exit 0 train.out "$TB" train "${tiny[@]}" --workers 2 --data "$STAGE_ORIGIN/$name" \
  --op-log "$WORK/train.tsv.zst"
contains train.out "Data: $STAGE_ORIGIN/$name (12 images, 2 classes), 2 decode workers"
contains train.out "4 in flight per worker"  # the default 16, at most a batch
check "the training completed, images/s > 0" [ "$(json_last_line train.out \
  'd["radix_metrics"]["total_images"] == 24 and d["radix_metrics"]["images_per_second"] > 0')" = True ]
zstd -dcq train.tsv.zst >train.tsv
tail -n +"$((mark + 1))" "$STAGE_ACCESS_LOG" >access.log
check "each image twice, a ranged GET of its bytes at its offset in the tar" "$PY" - train.tsv \
  access.log "$STAGE_WWW/$name" "$STAGE_ORIGIN" "${STAGE_ORIGIN##*:}" <<'PY'
import collections, csv, re, sys, tarfile
log, access, tar, origin, port = sys.argv[1:]
members = {m.offset_data: m.size for m in tarfile.open(tar) if m.isfile()}
assert len(members) == 12, members
rows = list(csv.DictReader(open(log), delimiter="\t"))
name = tar.rsplit("/", 1)[1]
assert len(rows) == 24 and all(r["op"] == "GET" and r["error"] == "" for r in rows), rows
assert {r["file"] for r in rows} == {f"{origin}/{name}"}, rows[0]
assert collections.Counter(int(r["bytes"]) for r in rows) == collections.Counter(
    s for s in members.values() for _ in range(2)), rows
# nginx: port "request" status bytes "range". The reads of whole members: 206s whose range is
# a member's [offset, offset + size); the index's header reads are the other ranges.
ranges, index_reads = collections.Counter(), 0
for line in open(access):
    m = re.match(r'(\d+) "(\w+) (\S+) [^"]*" (\d+) (\d+) "bytes=(\d+)-(\d+)"', line)
    if not m or m[1] != port or not m[3].endswith("/" + name) or m[2] != "GET":
        continue
    assert m[4] == "206", line
    first, last = int(m[6]), int(m[7])
    if members.get(first) == last - first + 1:
        ranges[first] += 1
    else:
        index_reads += 1
assert ranges == {offset: 2 for offset in members}, (ranges, members)
# Indexing reads 1 MiB a GET on remote storage: this ~45 KB tar's headers in one.
assert index_reads == 1, index_reads
PY

# Refused (2) or failed (1) before training: no model line.
expect_exit 2 folder.out "$TB" train "${tiny[@]}" --data "$STAGE_ORIGIN/imagenet/"
contains folder.out "a web server has no listing to index a folder by: add --stage-to DIR"
expect_exit 2 missing.out "$TB" train "${tiny[@]}" --data "$STAGE_ORIGIN/nosuch-$$.tar"
contains missing.out "no such tar file (HTTP 404)"
port=$(free_port)
expect_exit 1 down.out "$TB" train "${tiny[@]}" --data "http://127.0.0.1:$port/$name"
contains down.out "trainbench: error: --data http://127.0.0.1:$port/$name: cannot read it: HEAD"
for f in folder.out missing.out down.out; do
  if grep -q "Model: " "$f"; then fail "$f: a model was built"; fi
done
done_ok
