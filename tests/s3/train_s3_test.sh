#!/usr/bin/env bash
# train --data s3://... trains on images read straight from the bucket, no staging copy:
# through trainbench's S3 client (the keys and endpoint as `run` takes them, --s3-option,
# ranged GETs, several in flight per decode worker). Against the suite's gateway:
# - class folders of JPEGs under a prefix, 2 epochs of exactly the 12 images each (batch 4,
#   3 steps, no warm-up), --op-log: every image key is read once in each epoch (one decode
#   worker, so the log's first 12 GETs are epoch 1), each GET its whole object, nothing read
#   past the last step, the worker's GETs overlapping (`trainbench oplog`: most in flight);
#   the same through a proxy answering 503 SlowDown and cutting connections (retried); the training completes with images/s > 0; `replay` of that log reads
#   the same keys and bytes from the bucket;
# - the same images as one .tar object: each GET a ranged read of one member (its size, never
#   the tar's), 24 in all;
# - a wrong secret, a wrong key, a missing bucket: exit 1 before training starts (no model
#   line, no "train: starting" on a terminal, no results folder), the message naming the
#   endpoint and the bucket and what to check (the secret, the key ID: S3's code says which);
#   the secret nowhere in the output or results;
# - a tar object whose ranged GETs are refused (403 AccessDenied): the read named as refused,
#   with S3's code, not the archive as corrupt;
# - --stage-to with the same s3:// --data still stages, then trains;
# - refused with exit 2 before any work: an http(s) folder URL without --stage-to (a web
#   server has no listing; one tar is read in place: tests/stage/train_http_test.sh),
#   --s3-option with a local --data, an unknown --s3-option key, a malformed value, --io-depth
#   out of range, a prefix that holds nothing.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_unless "python_has PIL numpy" "$PY with Pillow and numpy (scripts/setup.sh installs them)"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
s3_use_gateway
s3_new_bucket trains3
at_exit "s3_remove_bucket $bucket"
cd "$WORK"
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
path_style=(--s3-option s3_force_path_style=true)

train_make_jpegs jpg
for f in jpg/n0*/*.JPEG; do
  check "put $f" [ "$(s3_status PUT "/$bucket/imgs/${f#jpg/}" "$WORK/body" -T "$f")" = 200 ]
done
tar -C jpg -cf imgs.tar n00 n01
check "put the tar" [ "$(s3_status PUT "/$bucket/sets/imgs.tar" "$WORK/body" -T imgs.tar)" = 200 ]

# The tiny model, without its warm-up step: 12 images, batch 4, 3 steps = one epoch each.
tiny=()
for ((i = 0; i < ${#TRAIN_TINY[@]}; i++)); do
  if [ "${TRAIN_TINY[i]}" = --warmup-steps ]; then i=$((i + 1)); else tiny+=("${TRAIN_TINY[i]}"); fi
done
tiny+=(--warmup-steps 0 --allow-cpu --epochs 2 --steps-per-epoch 3)

# reads_ok LOG.tsv PREFIX EPOCHS: every image of jpg/ is a GET of PREFIX/<class>/<name>, once per
# epoch, whole, and (the loader reading a batch after another with one worker) the log's
# first 12 GETs are the 12 images.
reads_ok() {
  "$PY" - "$@" <<'PY'
import collections, csv, os, sys
log, prefix, epochs = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = list(csv.DictReader(open(log), delimiter="\t"))
sizes = {f"{prefix}/{c}/{f}": os.path.getsize(os.path.join("jpg", c, f))
         for c in os.listdir("jpg") for f in os.listdir(os.path.join("jpg", c))}
assert len(sizes) == 12, sizes
assert all(r["op"] == "GET" and r["error"] == "" for r in rows), rows
count = collections.Counter(r["file"] for r in rows)
assert count == {k: epochs for k in sizes}, count
assert all(int(r["bytes"]) == sizes[r["file"]] for r in rows), rows
first = sorted(rows, key=lambda r: int(r["idx"]))[:12]
assert {r["file"] for r in first} == set(sizes), sorted(r["file"] for r in first)
PY
}

# Class folders under a prefix.
expect_exit 0 train.out "$TB" train "${tiny[@]}" --workers 1 --data "s3://$bucket/imgs" "${path_style[@]}" \
  --op-log "$WORK/train.tsv.zst" --output "$WORK/res"
contains train.out "Data: s3://$bucket/imgs (12 images, 2 classes), 1 decode workers, reads: s3"
contains train.out "4 in flight per worker"  # the default 16, at most a batch
check "the training completed, images/s > 0" [ "$(json_last_line train.out \
  'd["radix_metrics"]["total_images"] == 24 and d["radix_metrics"]["images_per_second"] > 0 and d["trainbench"]["complete"]')" = True ]
zstd -dcq train.tsv.zst >train.tsv
check "every image read once per epoch, whole, and no more" reads_ok train.tsv "s3://$bucket/imgs" 2
# One worker, yet its batch's GETs overlap: several in flight, not one after another.
expect_exit 0 profile.out "$TB" oplog train.tsv.zst
check "one worker keeps several GETs in flight" [ "$(json_last_line profile.out \
  'd["trainbench_oplog"][0]["profile"]["most in flight"] >= 2')" = True ]
check "the results keep the s3 options" [ "$(json "$(json_last_line train.out 'd["trainbench"]["results"]')/summary.json" \
  'd["config"]["s3_options"]')" = "{'s3_force_path_style': 'true'}" ]
# The training's own record of its reads from S3 (issue 46.6): the GETs the op-log holds, its
# S3 counters in the summary and the S3 line on the console, as `run` prints them.
check "train records its S3 reads" "$PY" - \
  "$(json_last_line train.out 'd["trainbench"]["results"]')/summary.json" train.tsv <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))["trainbench"]
gets = [r for r in csv.DictReader(open(sys.argv[2]), delimiter="\t") if r["op"] == "GET"]
assert s["io"]["reads"] == len(gets) and s["io"]["bytes_read"] == sum(int(g["bytes"]) for g in gets), (s["io"], len(gets))
assert s["storage_counters"]["s3_requests"] >= len(gets), s["storage_counters"]
PY
contains train.out "S3: "
contains train.out " requests, 0 retried; "

expect_exit 0 replay.out "$TB" replay train.tsv.zst --no-progress "${path_style[@]}" --output "$WORK/replays"
# With no --concurrency, as many workers as the training had GETs in flight (its one loader
# thread kept several), not one per thread.
check "replay reads the log's keys from the bucket, as many at once as the training" "$PY" - \
  "$(json_last_line replay.out 'd["trainbench"]["results"]')/summary.json" train.tsv \
  "$(json_last_line profile.out 'd["trainbench_oplog"][0]["profile"]["most in flight"]')" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
(get,) = s["ops"]
assert s["errors"] == 0 and get["replayed"]["count"] == len(rows) == 24, (get, len(rows))
assert get["replayed"]["bytes"] == sum(int(r["bytes"]) for r in rows), get
assert s["concurrency"] == int(sys.argv[3]) >= 2, (s["concurrency"], sys.argv[3])
PY

# Through a proxy that answers 503 SlowDown and cuts connections: the GETs are tried again
# (run's retries), the training completes, and the log still has each image once an epoch.
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy.json" --seed 7 --slowdown 0.15 --cut 0.1
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT expect_exit 0 faults.out "$TB" train "${tiny[@]}" --workers 1 \
  --data "s3://$bucket/imgs" "${path_style[@]}" --s3-option s3_max_attempts=10 \
  --op-log "$WORK/faults.tsv.zst"
fault_proxy_stop
zstd -dcq faults.tsv.zst >faults.tsv
check "through faults, every image once per epoch" reads_ok faults.tsv "s3://$bucket/imgs" 2
check "the proxy did fail requests" [ "$(json proxy.json 'd.get("slowdown", 0) + d.get("cut", 0) > 0')" = True ]

# The same images as one tar object, two workers with 2 reads in flight each.
expect_exit 0 tar.out "$TB" train "${tiny[@]}" --workers 2 --io-depth 2 --data "s3://$bucket/sets/imgs.tar" \
  "${path_style[@]}" --op-log "$WORK/tar.tsv.zst"
contains tar.out "Data: s3://$bucket/sets/imgs.tar (12 images, 2 classes), 2 decode workers"
contains tar.out "2 in flight per worker"
check "the tar trained" [ "$(json_last_line tar.out 'd["radix_metrics"]["images_per_second"] > 0')" = True ]
zstd -dcq tar.tsv.zst >tar.tsv
check "ranged reads of the tar's members, each image twice" "$PY" - tar.tsv "s3://$bucket/sets" \
  "$(stat -c %s imgs.tar)" <<'PY'
import collections, csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
sizes = collections.Counter(os.path.getsize(os.path.join("jpg", c, f))
                            for c in os.listdir("jpg") for f in os.listdir(os.path.join("jpg", c)))
assert len(rows) == 24 and all(r["op"] == "GET" and r["error"] == "" for r in rows), rows
assert {r["file"] for r in rows} == {sys.argv[2] + "/imgs.tar"}, rows
assert {r["endpoint"] for r in rows} == {sys.argv[2]}, rows[0]
got = collections.Counter(int(r["bytes"]) for r in rows)
assert got == {size: 2 * n for size, n in sizes.items()}, (got, sizes)
assert all(int(r["bytes"]) < int(sys.argv[3]) for r in rows)
PY

# Wrong credentials and a missing bucket: exit 1 before the model is built, nothing kept.
wrong=Wr0ng-$$-$RANDOM-secret
# refused_early OUT WHAT: OUT (a run's output) shows no training and no secret.
refused_early() {
  if grep -aq "Model: \|train: starting\|Epoch \[" "$1"; then cat "$1" >&2; return 1; fi
  # --output's folder is checked (made) before any work; refused, the job takes back the
  # empty folder it made.
  ! grep -aqF -- "$wrong" "$1" && [ ! -e "$WORK/nores" ]
}
expect_exit 1 secret.out env AWS_SECRET_ACCESS_KEY="$wrong" "$TB" train "${tiny[@]}" \
  --data "s3://$bucket/imgs" "${path_style[@]}" --output "$WORK/nores"
contains secret.out "trainbench: error: --data s3://$bucket/imgs: cannot read it: S3 ListObjectsV2 s3://$bucket/imgs/"
contains secret.out "at $S3_TEST_ENDPOINT"
contains secret.out "SignatureDoesNotMatch"
contains secret.out "check the secret access key (from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)"
contains secret.out "--s3-option secret_access_key="
check "a wrong secret fails before training, printing no secret" refused_early secret.out
expect_exit 1 key.out "$TB" train "${tiny[@]}" --data "s3://$bucket/sets/imgs.tar" "${path_style[@]}" \
  --s3-option access_key_id=NOSUCHKEY0000 --s3-option "secret_access_key=$wrong" --output "$WORK/nores"
contains key.out "s3://$bucket/sets"
contains key.out "InvalidAccessKeyId"
contains key.out "check the access key ID (from --s3-option)"  # the flag train takes (issue 46.22)
check "a wrong key fails before training, printing no secret" refused_early key.out
expect_exit 1 bucket.out "$TB" train "${tiny[@]}" --data "s3://nosuch-$bucket/imgs" "${path_style[@]}" \
  --output "$WORK/nores"
contains bucket.out "NoSuchBucket"
contains bucket.out "create bucket 'nosuch-$bucket'"
check "a missing bucket fails before training" refused_early bucket.out
if command -v script >/dev/null; then
  # On a terminal the live block says "train: starting" once training begins: never here.
  # (The secret through the environment: script's log heads itself with the command line.)
  AWS_SECRET_ACCESS_KEY=$wrong script -qec "$TB train ${tiny[*]} --data s3://$bucket/imgs \
    ${path_style[*]}" "$WORK/tty.log" >/dev/null && fail "a wrong secret on a terminal exited 0"
  contains "$WORK/tty.log" "check the secret access key"
  check "on a terminal too it fails before training starts" refused_early "$WORK/tty.log"
fi
s3_no_secret "$WORK"/*.out

# A tar object whose ranged GETs are refused (the proxy answers them 403 AccessDenied; its
# HEAD and the listing go through): the refusal is named, not the archive called corrupt.
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/refused.json" --answer get=403
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT expect_exit 1 refused.out "$TB" train "${tiny[@]}" \
  --data "s3://$bucket/sets/imgs.tar" "${path_style[@]}" --output "$WORK/nores"
fault_proxy_stop
contains refused.out "s3://$bucket/sets/imgs.tar: cannot list its tar members: reading bytes 0-"
contains refused.out "HTTP 403 AccessDenied"
contains refused.out "not allowed GetObject on s3://$bucket/sets/imgs.tar"
if grep -q "not a tar archive or corrupt" refused.out; then fail "a refused read called corrupt: $(cat refused.out)"; fi

# Staged as before: --stage-to copies the prefix, then trains on the copy.
expect_exit 0 staged.out "$TB" train "${tiny[@]}" --data "s3://$bucket/imgs" "${path_style[@]}" \
  --stage-to "$WORK/staged" --output "$WORK/staged-res"
check "staged, then trained" [ "$(json_last_line staged.out \
  'd["trainbench"]["kind"] == "staged_train" and d["radix_metrics"]["images_per_second"] > 0')" = True ]
check "the staged copy is on disk" [ "$(find "$WORK/staged" -name '*.JPEG' | wc -l)" = 12 ]

# Refused before any work (exit 2).
expect_exit 2 http.out "$TB" train "${tiny[@]}" --data "http://127.0.0.1:1/imgs/"
contains http.out "add --stage-to DIR"
contains http.out "an s3:// --data trains without staging"
expect_exit 2 local.out "$TB" train "${tiny[@]}" --data "$WORK/jpg" "${path_style[@]}"
contains local.out "--s3-option goes with --stage-to DIR or an s3:// --data"
expect_exit 2 unknown.out "$TB" train "${tiny[@]}" --data "s3://$bucket/imgs" --s3-option endpont_url=http://x
contains unknown.out "endpont_url"
contains unknown.out "endpoint_url"
expect_exit 2 value.out "$TB" train "${tiny[@]}" --data "s3://$bucket/imgs" --s3-option s3_max_attempts=many
contains value.out "s3_max_attempts"
expect_exit 2 depth.out "$TB" train "${tiny[@]}" --data "s3://$bucket/imgs" --io-depth 5000
contains depth.out "--io-depth"
expect_exit 2 empty.out "$TB" train "${tiny[@]}" --data "s3://$bucket/nothing" "${path_style[@]}"
contains empty.out "holds nothing"
done_ok
