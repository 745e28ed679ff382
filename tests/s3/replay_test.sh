#!/usr/bin/env bash
# replay against the suite's S3 gateway: a run's op-log of an s3:// dataset replayed in parallel
# does the same GETs and bytes; a sai3-bench-style log of PUTs, HEAD, GET, LIST and DELETEs
# replayed into an empty s3:// --target leaves what an independent client (curl) lists: the
# objects it put and did not delete, at their sizes; a --target prefix with objects is refused.
# The run's op-log records the endpoint (its endpoint_url column, no key or secret), so a replay
# given no endpoint goes there, not to AWS; a log without it (an older trainbench's) is refused
# at once (exit 2) naming --s3-option endpoint_url, unless AWS_ENDPOINT_URL gives one.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
s3_use_gateway
s3_new_bucket replay
at_exit "s3_remove_bucket $bucket"
cd "$WORK"
opt=(--s3-option "endpoint_url=$S3_TEST_ENDPOINT")
w=(resnet50_h100 dataset.data_folder="s3://$bucket/r50" dataset.num_files_train=12 dataset.num_samples_per_file=4
   dataset.record_length_bytes=40000 dataset.record_length_bytes_stdev=0 reader.batch_size=4 train.epochs=1
   train.computation_time=0.005 output.folder="$WORK/out" storage.storage_options.endpoint_url="$S3_TEST_ENDPOINT")
expect_exit 0 datagen.out "$TB" datagen "${w[@]}" --no-progress
expect_exit 0 run.out "$TB" run "${w[@]}" --no-progress --op-log "$WORK/ops.tsv.zst"
expect_exit 0 replay.out "$TB" replay ops.tsv.zst "${opt[@]}" --no-progress --output res
check "the run's GETs, replayed against the bucket" "$PY" - \
  "$(json_last_line replay.out 'd["trainbench"]["results"]')/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
(get,) = s["ops"]
assert s["errors"] == 0 and s["storages"].startswith("s3://"), s
assert get["replayed"]["count"] == get["original"]["count"] > 0, get
assert get["replayed"]["bytes"] == get["original"]["bytes"] > 0, get
PY

# The endpoint the run read from, in its op-log; the replay finds it there.
zstd -dcq ops.tsv.zst >ops.tsv
check "the op-log records the endpoint on every line, and no key" "$PY" - ops.tsv "$S3_TEST_ENDPOINT" \
  "$AWS_ACCESS_KEY_ID" <<'PY'
import csv, sys
text = open(sys.argv[1]).read()
rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
assert rows and {r["endpoint_url"] for r in rows} == {sys.argv[2]}, rows[:2]
assert sys.argv[3] not in text
PY
expect_exit 0 logged.out "$TB" replay ops.tsv.zst --no-progress --output res
contains logged.out "(at $S3_TEST_ENDPOINT, as the op-log says)"
check "replayed against the op-log's endpoint, every GET" [ "$(json \
  "$(json_last_line logged.out 'd["trainbench"]["results"]')/summary.json" \
  '(d["errors"], d["operations"] == d["original_operations"] > 0)')" = "(0, True)" ]
# A log without the column (as an older trainbench wrote): refused at once without an endpoint.
"$PY" - ops.tsv old.tsv <<'PY'
import sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for line in f:
        out.write(line.rstrip("\n").rsplit("\t", 1)[0] + "\n")
PY
expect_exit 2 old.out timeout 10 "$TB" replay old.tsv --no-progress --output res
contains old.out "old.tsv names s3://$bucket/r50 but not the S3 server it is on"
contains old.out "give --s3-option endpoint_url=URL (or set AWS_ENDPOINT_URL)"
AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT expect_exit 0 old-env.out "$TB" replay old.tsv --no-progress --output res

"$PY" "$SRC/tests/lib/sai3_op_log.py" sai3.tsv s3://other-bucket/ PUT:5000:k/a.bin PUT:300000:k/b.bin \
  PUT:7:k/c.bin HEAD:5000:k/a.bin GET:300000:k/b.bin LIST:0:k/ DELETE:0:k/c.bin
expect_exit 2 full.out "$TB" replay sai3.tsv --target "s3://$bucket/r50" "${opt[@]}" --no-progress
contains full.out "holds"
expect_exit 0 puts.out "$TB" replay sai3.tsv --target "s3://$bucket/copy" "${opt[@]}" --no-progress
s3_curl GET "/$bucket?list-type=2&prefix=copy%2F" >listing.xml
check "curl lists the two objects the replay put and did not delete, at their sizes" "$PY" - listing.xml <<'PY'
import re, sys
t = open(sys.argv[1]).read()
got = dict(zip(re.findall(r"<Key>([^<]*)</Key>", t), map(int, re.findall(r"<Size>(\d+)</Size>", t))))
assert got == {"copy/k/a.bin": 5000, "copy/k/b.bin": 300000}, got
PY
check "every operation succeeded" test "$(json_last_line puts.out 'd["trainbench_replay"]["errors"]')" = 0
s3_no_secret "$WORK"
done_ok
