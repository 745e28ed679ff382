#!/usr/bin/env bash
# replay against the suite's S3 gateway: a run's op-log of an s3:// dataset replayed in parallel
# does the same GETs and bytes; a sai3-bench-style log of PUTs, HEAD, GET, LIST and DELETEs
# replayed into an empty s3:// --target leaves what an independent client (curl) lists: the
# objects it put and did not delete, at their sizes; a --target prefix with objects is refused.
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
