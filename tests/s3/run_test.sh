# trainbench's own S3 client against the gateway (which checks every signature and payload
# hash): datagen (the prepare phase) with multipart uploads into keys with a space and a
# non-ASCII letter, then run (the get phase) reading every byte written x epochs; checkpoints
# written to and read back from S3; a dataset without a manifest found by listing over many
# pages; DLIO's storage keys; `clean`; a wrong secret refused with a message that names the
# object and what to check; refusals named by their cause (issue 46): S3's AccessDenied on the
# data objects (a bucket policy), a bucket of another user and a skewed clock (a HEAD's 403 has
# no body: its Date, or a GET of the same key, tells why), and tries that ran out named as the
# last of s3_max_attempts with what the earlier ones met;
# the secret never printed nor saved; and a run through a proxy that answers 503 SlowDown,
# cuts connections mid-body and delays, completing with every byte and counting retries.
# What trainbench wrote is checked with curl's own SigV4 client (lib.sh), not trainbench's.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"

s3_new_bucket run
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
secret=$AWS_SECRET_ACCESS_KEY
folder="s3://$bucket/my data ü/r50"
common=(resnet50_h100 dataset.num_files_train=4 dataset.num_samples_per_file=100
  "dataset.data_folder=$folder" storage.storage_options.s3_force_path_style=true
  "output.folder=$WORK/out")

# json FILE EXPR

# Prepare: ~11 MB files in 5 MiB parts (multipart), verified by reading them back.
"$TB" datagen "${common[@]}" storage.storage_options.part_size=5242880 --verify \
  >datagen.out 2>datagen.err || { cat datagen.err; fail "datagen to S3"; }
grep -q "verify: 4 files OK" datagen.out || fail "datagen --verify over S3: $(cat datagen.out)"
# What curl lists under the prefix: 4 tfrecord objects with the manifest's sizes.
s3_curl GET "/$bucket?list-type=2&prefix=my%20data%20%C3%BC%2Fr50%2Ftrain%2F" >list.xml
"$PY" - list.xml <<'PY' || fail "objects listed by curl"
import re, sys
keys = re.findall(r"<Key>([^<]*)</Key>", open(sys.argv[1], encoding="utf-8").read())
assert len(keys) == 4 and all(k.startswith("my data ü/r50/train/") for k in keys), keys
PY
# No multipart upload was left open.
s3_curl GET "/$bucket?uploads=" >uploads.xml
! grep -q "<Upload>" uploads.xml || fail "a multipart upload was left behind: $(cat uploads.xml)"
# One object fetched by curl is byte-identical to what the manifest says it holds.
s3_curl GET "/$bucket/my%20data%20%C3%BC/r50/trainbench_manifest.json" -o manifest.json
key=$(json manifest.json 'd["files"][0]["path"]')
size=$(json manifest.json 'd["files"][0]["size_bytes"]')
s3_curl GET "/$bucket/my%20data%20%C3%BC/r50/$key" -o first.obj
[ "$(stat -c %s first.obj)" = "$size" ] || fail "object $key: $(stat -c %s first.obj) bytes, manifest $size"
train_bytes=$(json manifest.json 'd["total_bytes"]')  # the samples' bytes, as run_bytes_read.sh

# Get: every byte x 2 epochs, with checkpoints written to S3 and the last read back.
"$TB" run "${common[@]}" train.computation_time=0 reader.batch_size=20 train.epochs=2 \
  reader.read_threads=4 --accelerators 2 workflow.checkpoint=True \
  "checkpoint.checkpoint_folder=s3://$bucket/ckpt" model.model_size_bytes=6000000 \
  checkpoint.num_checkpoints_read=1 >run.out 2>run.err || { cat run.err; fail "run from S3"; }
tail -n 1 run.out >run.json
[ "$(json run.json 'd["trainbench_metrics"]["bytes_read"]')" = $((train_bytes * 2)) ] ||
  fail "bytes read $(json run.json 'd["trainbench_metrics"]["bytes_read"]') != 2 x $train_bytes"
dir=$(ls -d "$WORK"/out/*/ | head -n 1)
"$PY" - "$dir/summary.json" <<'PY' || fail "summary of the S3 run"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"], d["stop_reason"]
assert d["read_engine"].startswith("s3"), d["read_engine"]
assert d["storage_counters"]["s3_requests"] >= 800, d["storage_counters"]
ops = [c["operation"] for c in d["checkpoints"]]
assert ops.count("write") == 2 and ops.count("read") == 1, ops
assert all(c["bytes"] == 18000000 for c in d["checkpoints"]), d["checkpoints"]
lat = d["storage_latency_ms"]
assert lat["checkpoint_PUT"]["count"] >= 4 and lat["GET"]["count"] >= 800, lat.keys()
PY
s3_curl GET "/$bucket?list-type=2&prefix=ckpt%2F" >ckpt.xml
grep -q "<Key>ckpt/" ckpt.xml || fail "no checkpoint objects under s3://$bucket/ckpt"
s3_no_secret run.out run.err datagen.out datagen.err "$dir"

# The secret given as a key: redacted in the saved config, never printed.
rm -rf "$WORK/out"
env -u AWS_SECRET_ACCESS_KEY -u AWS_ACCESS_KEY_ID "$TB" run "${common[@]}" train.epochs=1 \
  train.computation_time=0 "storage.storage_options.access_key_id=$AWS_ACCESS_KEY_ID" \
  "storage.storage_options.secret_access_key=$secret" >keyed.out 2>keyed.err ||
  { cat keyed.err; fail "run with the keys in storage_options"; }
dir=$(ls -d "$WORK"/out/*/ | head -n 1)
grep -q "secret_access_key: <redacted>" "$dir/config.yaml" || fail "config.yaml does not redact the secret"
s3_no_secret keyed.out keyed.err "$dir"
# ... and in the datagen line a run names for a missing dataset.
env -u AWS_SECRET_ACCESS_KEY -u AWS_ACCESS_KEY_ID "$TB" run "${common[@]}" \
  "dataset.data_folder=s3://$bucket/nothing-here/" "storage.storage_options.access_key_id=$AWS_ACCESS_KEY_ID" \
  "storage.storage_options.secret_access_key=$secret" >missing.out 2>missing.err &&
  fail "a run without its dataset started"
grep -qF "'storage.storage_options.secret_access_key=<redacted>'" missing.err ||
  fail "the missing dataset's datagen line: $(cat missing.err)"
s3_no_secret missing.out missing.err

# A wrong secret: refused at once, naming the object, endpoint, S3's code (a HEAD's 403 has
# no body: a GET of the same key names it) and the secret to check.
AWS_SECRET_ACCESS_KEY=wrong-$secret "$TB" run "${common[@]}" >bad.out 2>bad.err && fail "a wrong secret was accepted"
grep -q "HTTP 403 SignatureDoesNotMatch" bad.err && grep -q "check the secret access key" bad.err &&
  grep -qF "s3://$bucket/my data ü/r50/" bad.err || fail "wrong-secret message: $(cat bad.err)"
s3_no_secret bad.out bad.err

# lacks FILE TEXT: the file does not have the text.
lacks() {
  ! grep -qF -- "$2" "$1" || {
    cat "$1" >&2
    fail "'$1' contains: $2"
  }
  checks=$((checks + 1))
}
main_bucket=$bucket

# The data objects denied by a bucket policy (the manifest and the lock still readable): run
# names S3's AccessDenied and the permission the key lacks on that object, not the keys.
s3_new_bucket denied
denied=$bucket bucket=$main_bucket
at_exit "s3_remove_bucket $denied"
small=(resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=10
  storage.storage_options.s3_force_path_style=true "output.folder=$WORK/out" train.epochs=1
  train.computation_time=0 reader.batch_size=10)
expect_exit 0 denied-gen.out "$TB" datagen "${small[@]}" "dataset.data_folder=s3://$denied/ds"
printf '{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::%s/ds/train/*"}]}' \
  "$denied" >deny.json
[ "$(s3_status PUT "/$denied?policy=" deny.out -T deny.json)" = 204 ] || fail "bucket policy: $(cat deny.out)"
expect_exit 1 denied.out "$TB" run "${small[@]}" "dataset.data_folder=s3://$denied/ds"
contains denied.out "HTTP 403 AccessDenied"
contains denied.out "is valid, but not allowed GetObject on s3://$denied/ds/train/"
contains denied.out "the bucket's policy"
lacks denied.out "check the access key and secret"

# A bucket another user owns (a second gateway user makes it): run's first request, the HEAD
# of the lease object, gets a 403 without a body; a GET of the same key says AccessDenied.
other_key=OTHER$(printf '%015d' $$) other_secret=other/$$/$RANDOM/secret-000000000000000
radosgw-admin -c "$S3_GATEWAY_DIR/ceph.conf" -n client.admin user create --uid="other-$$" \
  --display-name=other --access-key="$other_key" --secret="$other_secret" >user.out 2>&1 ||
  fail "radosgw-admin user create: $(cat user.out)"
at_exit "radosgw-admin -c '$S3_GATEWAY_DIR/ceph.conf' -n client.admin user rm --uid=other-$$ --purge-data >/dev/null 2>&1"
others=others-$$-$RANDOM
[ "$(AWS_ACCESS_KEY_ID=$other_key AWS_SECRET_ACCESS_KEY=$other_secret s3_status PUT "/$others" mk.xml)" = 200 ] ||
  fail "the other user's bucket: $(cat mk.xml)"
expect_exit 1 others.out "$TB" run "${small[@]}" "dataset.data_folder=s3://$others/ds"
contains others.out "HTTP 403 AccessDenied (said by a GET of the same key: a HEAD's reply has no body)"
contains others.out "not allowed HeadObject (the s3:GetObject permission) on s3://$others/ds/.trainbench.lock"
contains others.out "a bucket another user owns must be shared by its owner"
lacks others.out "check the access key and secret"

# A clock 20 minutes behind the server's (the proxy answers as such a server does: 403
# RequestTimeTooSkewed, no body to a HEAD, its Date 20 minutes ahead): run, whose first
# request is a HEAD, and datagen, whose first is a GET, both name the clocks.
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/skew.json" --skew-s 1200
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT expect_exit 1 skew-run.out "$TB" run "${small[@]}" \
  "dataset.data_folder=s3://$denied/ds"
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT expect_exit 1 skew-gen.out "$TB" datagen "${small[@]}" \
  "dataset.data_folder=s3://$denied/skewed"
fault_proxy_stop
contains skew-run.out "HeadObject s3://$denied/ds/.trainbench.lock"
contains skew-run.out "min behind the server's (its reply's Date: "
contains skew-gen.out "HTTP 403 RequestTimeTooSkewed"
for f in skew-run.out skew-gen.out; do
  contains "$f" "set this host's clock right (NTP"
  lacks "$f" "check the access key and secret"
done

# Every data GET cut mid-body: after s3_max_attempts tries the message says it was the last
# of them, what the earlier ones met, and the key to raise, not only the last cut.
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/cuts.json" --cut 1 --fault-match '^GET [^ ]*/train/'
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT expect_exit 1 cuts.out "$TB" run "${common[@]}" \
  train.computation_time=0 train.epochs=1 reader.batch_size=20 storage.storage_options.s3_max_attempts=3
fault_proxy_stop
contains cuts.out "that was the last of 3 tries (storage.storage_options.s3_max_attempts is 3), the 2 before it met: 2 x "
contains cuts.out "broke off or stalled mid-request: see the endpoint's logs"
contains cuts.out "raise storage.storage_options.s3_max_attempts to try more times"
check "the proxy cut the data GETs" [ "$(json "$WORK/cuts.json" 'd["cut"] >= 3')" = True ]
s3_no_secret ./*.out

# No manifest (a dataset DLIO wrote): found by listing, 2 keys a page.
[ "$(s3_status DELETE "/$bucket/my%20data%20%C3%BC/r50/trainbench_manifest.json" del.xml)" = 204 ] ||
  fail "cannot delete the manifest"
rm -rf "$WORK/out"
"$TB" run "${common[@]}" storage.storage_options.list_max_keys=2 train.computation_time=0 \
  reader.batch_size=16 train.epochs=1 >listed.out 2>listed.err || { cat listed.err; fail "run by listing"; }
tail -n 1 listed.out >listed.json
[ "$(json listed.json 'd["trainbench_metrics"]["bytes_read"]')" = "$train_bytes" ] || fail "listed run bytes"

# Faults between client and server: 503 SlowDown, connections cut mid-body, delays.
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy.json" --seed 7 --slowdown 0.08 --cut 0.05 --delay 0.05 --delay-ms 100
rm -rf "$WORK/out"
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT "$TB" run "${common[@]}" storage.storage_options.list_max_keys=2 \
  storage.storage_options.s3_max_attempts=10 train.computation_time=0 reader.batch_size=20 \
  reader.read_threads=4 --accelerators 2 train.epochs=1 >faults.out 2>faults.err ||
  { cat faults.err; fail "run through the fault proxy"; }
fault_proxy_stop
tail -n 1 faults.out >faults.json
[ "$(json faults.json 'd["trainbench_metrics"]["bytes_read"]')" = "$train_bytes" ] ||
  fail "bytes read through faults: $(json faults.json 'd["trainbench_metrics"]["bytes_read"]')"
dir=$(ls -d "$WORK"/out/*/ | head -n 1)
"$PY" - "$dir/summary.json" "$WORK/proxy.json" <<'PY' || fail "retries under faults"
import json, sys
d = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
s = d["storage_counters"]
faults = p.get("slowdown", 0) + p.get("cut", 0)
assert faults > 0, p
assert s["s3_retries"] >= faults * 0.5, (s, p)
assert s["s3_retry_seconds"] > 0, s
PY
grep -q "^S3: .* retried; .* lost to retries" faults.out || fail "the table does not report retries"
grep -q "GET_first_byte" faults.out || fail "the table lacks per-request latencies"

# An interrupted datagen aborts its multipart uploads: none is left open.
"$TB" datagen resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=2000 \
  "dataset.data_folder=s3://$bucket/interrupted" storage.storage_options.part_size=5242880 \
  --threads 2 >int.out 2>int.err &
pid=$!
for _ in $(seq 100); do  # until a multipart upload is open (at most 10 s)
  s3_curl GET "/$bucket?uploads=" | grep -q "<Upload>" && break
  sleep 0.1
done
kill -INT "$pid"
wait "$pid" && fail "datagen was not interrupted" || true
s3_curl GET "/$bucket?uploads=" >uploads.xml
! grep -q "<Upload>" uploads.xml || fail "an interrupted upload was left open: $(cat uploads.xml)"
# A killed datagen cannot abort its upload; the next datagen into that folder does.
"$TB" datagen resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=2000 \
  "dataset.data_folder=s3://$bucket/killed" storage.storage_options.part_size=5242880 \
  --threads 2 >kill.out 2>kill.err &
pid=$!
for _ in $(seq 100); do
  s3_curl GET "/$bucket?uploads=" | grep -q "<Upload>" && break
  sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
s3_curl GET "/$bucket?uploads=" | grep -q "<Key>killed/" || fail "the killed datagen left no upload to test with"
"$TB" datagen resnet50_h100 dataset.num_files_train=1 dataset.num_samples_per_file=10 \
  "dataset.data_folder=s3://$bucket/killed" >rerun.out 2>rerun.err || { cat rerun.err; fail "datagen after a kill"; }
s3_curl GET "/$bucket?uploads=" >uploads.xml
! grep -q "<Upload>" uploads.xml || fail "the killed datagen's upload is still open: $(cat uploads.xml)"

# A compressed HDF5 dataset has no byte range per sample: run refuses it on S3, saying why.
hz=(unet3d_h100 dataset.format=hdf5 workflow.checkpoint=False dataset.num_files_train=1 dataset.num_samples_per_file=2 dataset.record_length_bytes=65536
  dataset.record_length_bytes_stdev=0 dataset.compression=gzip "dataset.data_folder=s3://$bucket/h5z"
  "output.folder=$WORK/out")
"$TB" datagen "${hz[@]}" >hz.out 2>hz.err || { cat hz.err; fail "gzip hdf5 datagen to S3"; }
rm -rf "$WORK/out"
code=0
"$TB" run "${hz[@]}" train.computation_time=0 reader.batch_size=1 >hz.out 2>hz.err || code=$?
[ "$code" = 2 ] && grep -q "no byte range in the object" hz.err || fail "gzip hdf5 on S3: exit $code, $(cat hz.err)"
[ -z "$(ls -A "$WORK/out" 2>/dev/null)" ] || fail "a refused run left a results folder: $(ls -R "$WORK/out")"

# DLIO's storage keys, with no AWS variables at all.
rm -rf "$WORK/out"
env -u AWS_ENDPOINT_URL -u AWS_SECRET_ACCESS_KEY -u AWS_ACCESS_KEY_ID "$TB" run resnet50_h100 \
  dataset.num_files_train=4 dataset.num_samples_per_file=100 storage.storage_type=s3 \
  "storage.storage_root=$bucket" "dataset.data_folder=my data ü/r50" \
  "storage.storage_options.endpoint_url=$S3_TEST_ENDPOINT" storage.storage_options.s3_force_path_style=true \
  "storage.storage_options.access_key_id=$AWS_ACCESS_KEY_ID" \
  "storage.storage_options.secret_access_key=$secret" train.computation_time=0 train.epochs=1 \
  "output.folder=$WORK/out" >dlio.out 2>dlio.err || { cat dlio.err; fail "run with DLIO's storage keys"; }
s3_no_secret dlio.out dlio.err "$WORK/out"

# An AWS profile in ~/.aws: credentials and endpoint from files, nothing from variables.
mkdir -p "$WORK/home/.aws"
printf '[profile bench]\nregion = us-east-1\nendpoint_url = %s\n' "$S3_TEST_ENDPOINT" >"$WORK/home/.aws/config"
printf '[bench]\naws_access_key_id = %s\naws_secret_access_key = %s\n' "$AWS_ACCESS_KEY_ID" "$secret" \
  >"$WORK/home/.aws/credentials"
rm -rf "$WORK/out"
env -u AWS_ENDPOINT_URL -u AWS_SECRET_ACCESS_KEY -u AWS_ACCESS_KEY_ID HOME="$WORK/home" AWS_PROFILE=bench \
  "$TB" run "${common[@]}" train.computation_time=0 train.epochs=1 >profile.out 2>profile.err ||
  { cat profile.err; fail "run with an AWS profile"; }
s3_no_secret profile.out profile.err "$WORK/out"

# HDF5 on S3: libhdf5 needs files, so run reads the manifest's sample extents by ranged GETs.
h5=(unet3d_h100 dataset.format=hdf5 workflow.checkpoint=False dataset.num_files_train=2 dataset.num_samples_per_file=3 dataset.record_length_bytes=262144
  dataset.record_length_bytes_stdev=0 "dataset.data_folder=s3://$bucket/h5" "output.folder=$WORK/out")
"$TB" datagen "${h5[@]}" >h5gen.out 2>h5gen.err || { cat h5gen.err; fail "hdf5 datagen to S3"; }
"$TB" run "${h5[@]}" train.computation_time=0 reader.batch_size=1 train.epochs=2 >h5.out 2>h5.err ||
  { cat h5.err; fail "hdf5 run from S3"; }
tail -n 1 h5.out >h5.json
[ "$(json h5.json 'd["trainbench_metrics"]["bytes_read"]')" = "$(json h5.json 'd["trainbench_metrics"]["requested_bytes"]')" ] ||
  fail "hdf5 on S3: bytes read != requested"
[ "$(json h5.json 'd["trainbench_metrics"]["requested_bytes"]')" -ge $((2 * 6 * 262144)) ] ||
  fail "hdf5 on S3 read too little: $(cat h5.json)"

# clean of a prefix without a manifest (the one deleted above): refused, nothing removed.
"$TB" clean "${common[@]}" --yes >clean.out 2>&1 && fail "clean of a prefix with no manifest: $(cat clean.out)"
grep -q "no trainbench dataset" clean.out || fail "clean refusal: $(cat clean.out)"
s3_curl GET "/$bucket?list-type=2&prefix=my%20data%20%C3%BC%2Fr50%2F" | grep -q "<Key>" ||
  fail "a refused clean removed objects"
# With the manifest back, a foreign object beside the dataset is listed and kept.
[ "$(s3_status PUT "/$bucket/my%20data%20%C3%BC/r50/trainbench_manifest.json" put.xml -T manifest.json)" = 200 ] ||
  fail "cannot put the manifest back"
echo mine >mine.txt
[ "$(s3_status PUT "/$bucket/my%20data%20%C3%BC/r50/mine.txt" put.xml -T mine.txt)" = 200 ] ||
  fail "cannot put a foreign object"
# clean: lists without --yes, removes with it; curl then finds only the foreign object.
"$TB" clean "${common[@]}" >clean.out 2>&1 || fail "clean (list): $(cat clean.out)"
grep -q "foreign, kept: .*mine.txt" clean.out || fail "clean does not list the foreign object: $(cat clean.out)"
grep -q "would remove .* add --yes" clean.out || fail "clean without --yes: $(cat clean.out)"
s3_curl GET "/$bucket?list-type=2&prefix=my%20data%20%C3%BC%2Fr50%2F" | grep -q "<Key>" ||
  fail "clean without --yes removed objects"
"$TB" clean "${common[@]}" --yes >clean.out 2>&1 || fail "clean --yes: $(cat clean.out)"
s3_curl GET "/$bucket?list-type=2&prefix=my%20data%20%C3%BC%2Fr50%2F" >left.xml
[ "$(grep -o "<Key>[^<]*</Key>" left.xml)" = "<Key>my data ü/r50/mine.txt</Key>" ] ||
  fail "after clean --yes: $(cat left.xml)"
echo OK
