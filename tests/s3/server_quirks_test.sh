# What S3 servers and proxies do that the gateway does not, shown through fault_proxy.py:
# a reply lost after the server carried out CompleteMultipartUpload (the object is whole:
# datagen accepts it) or CreateMultipartUpload (the upload it started is aborted, none left
# open); a server without ListMultipartUploads (501: the cleanup warns and goes on, the 501
# asked once, not retried, its message naming the operation); a 413 on a PUT (the hint names
# storage_options.part_size); a server that ignores Range (a 200 with the whole object: run
# fails naming it rather than read the object's first bytes as the range; a whole-object read
# is still right); and a
# server that ignores conditional writes (the lock warns that the prefix cannot be locked); a
# CompleteMultipartUpload answered 200 with an <Error> body (retried; when every try is, a
# plain message); a body limit (every part, the manifest's too, at most part_size bytes).
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
at_exit fault_proxy_stop
cd "$WORK"

s3_new_bucket quirks
at_exit "s3_remove_bucket $bucket"
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT  # each case through the proxy sets its own
# tb PREFIX ARGS...: trainbench with a small resnet50 dataset at s3://$bucket/PREFIX, in 5 MiB
# parts (each ~5.7 MB file is a 2-part upload), through $AWS_ENDPOINT_URL, one try per request
# beyond what a case needs.
tb() {
  local cmd=$1 prefix=$2
  shift 2
  "$TB" "$cmd" resnet50_h100 dataset.num_files_train=4 dataset.num_samples_per_file=50 \
    "dataset.data_folder=s3://$bucket/$prefix" storage.storage_options.s3_force_path_style=true \
    storage.storage_options.part_size=5242880 "output.folder=$WORK/out" "$@"
}
open_uploads() {  # open_uploads: how many multipart uploads the bucket holds (asked of the gateway)
  s3_curl GET "/$bucket?uploads=" | grep -o "<Upload>" | wc -l
}

# --- 24: the reply to the first CompleteMultipartUpload is lost; the object is complete. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/complete.json" --lose-reply complete
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT tb datagen complete --verify >complete.out 2>complete.err ||
  fail "datagen after a lost CompleteMultipartUpload reply: $(cat complete.err)"
fault_proxy_stop
check "a Complete reply was lost" [ "$(json complete.json 'd["lost"]')" = 1 ]
contains complete.out "verify: 4 files OK"

# --- issue 34: the first CompleteMultipartUpload is answered 200 with an <Error> body (AWS
# documents it; its SDKs retry it as a 5xx): retried, and the dataset is whole. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/error200.json" --error-200 complete
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT tb datagen error200 --verify >error200.out 2>error200.err ||
  fail "datagen after a 200 with an <Error> body to CompleteMultipartUpload: $(cat error200.err)"
fault_proxy_stop
check "one Complete answered 200 with an error" [ "$(json error200.json 'd["errors_in_200"]')" = 1 ]
contains error200.out "verify: 4 files OK"
# Every Complete so answered: after s3_max_attempts tries a plain message (the code, S3's
# message, the next step), not the XML; the upload is aborted.
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/error200s.json" --error-200 complete \
  --error-200-count 1000
expect_exit 1 error200s.err env AWS_ENDPOINT_URL="$FAULT_PROXY_ENDPOINT" "$TB" datagen resnet50_h100 \
  dataset.num_files_train=1 dataset.num_samples_per_file=50 "dataset.data_folder=s3://$bucket/error200s" \
  storage.storage_options.s3_force_path_style=true storage.storage_options.part_size=5242880 \
  storage.storage_options.s3_max_attempts=3
fault_proxy_stop
check "tried 3 times" [ "$(json error200s.json 'd["errors_in_200"]')" = 3 ]
contains error200s.err "S3 CompleteMultipartUpload s3://$bucket/error200s/train/"
contains error200s.err "HTTP 200 with an error in its body: InternalError (We encountered an internal error. Please try again.)"
contains error200s.err "3 times in a row: see the endpoint's logs for the request id, and run the command again"
! grep -qE "<Error>|<\?xml" error200s.err || fail "raw XML in the message: $(cat error200s.err)"
check "no multipart upload left open" [ "$(open_uploads)" = 0 ]

# --- issue 34: a body limit of 5.5 MiB, part_size 5 MiB. One file of 600,000 16-byte samples:
# its 9.6 MB data and index and its 6.5 MB manifest (each sample's offset and length) go in
# parts of part_size bytes, none above the limit (the manifest went in one 6.5 MB body, and
# the 413 hint to lower part_size could not help). ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/limit.json" --max-body 5767168
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT "$TB" datagen resnet50_h100 dataset.format=indexed_binary \
  dataset.num_files_train=1 dataset.num_samples_per_file=600000 dataset.record_length_bytes=16 \
  dataset.record_length_bytes_stdev=0 "dataset.data_folder=s3://$bucket/limit" \
  storage.storage_options.s3_force_path_style=true storage.storage_options.part_size=5242880 \
  >limit.out 2>limit.err || fail "datagen behind a 5.5 MiB body limit: $(cat limit.err)"
fault_proxy_stop
check "no body over the limit" [ "$(json limit.json 'd["too_large"]')" = 0 ]
check "parts of part_size" [ "$(json limit.json 'd["largest_body"]')" = 5242880 ]
s3_curl HEAD "/$bucket/limit/trainbench_manifest.json" >manifest.head
check "the manifest in 2 parts (ETag MD5-2)" grep -qi '^etag: "[0-9a-f]*-2"' manifest.head
check "the manifest is over part_size" [ "$(sed -n 's/^[Cc]ontent-[Ll]ength: \([0-9]*\).*/\1/p' manifest.head)" -gt 5242880 ]

# --- 25: the reply to the first CreateMultipartUpload is lost; its upload is aborted. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/create.json" --lose-reply create
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT tb datagen create >create.out 2>create.err ||
  fail "datagen after a lost CreateMultipartUpload reply: $(cat create.err)"
fault_proxy_stop
check "a Create reply was lost" [ "$(json create.json 'd["lost"]')" = 1 ]
check "no multipart upload left open" [ "$(open_uploads)" = 0 ]

# --- 23: no ListMultipartUploads (501): a warning, asked once, and the dataset written. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/nolist.json" --answer list-uploads=501
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT tb datagen nolist >nolist.out 2>nolist.err ||
  fail "datagen against a server without ListMultipartUploads: $(cat nolist.err)"
fault_proxy_stop
contains nolist.err "cannot look for multipart uploads left"
contains nolist.err "S3 ListMultipartUploads s3://$bucket/nolist/train/"
contains nolist.err "HTTP 501 NotImplemented"
check "the 501 asked once, not retried" [ "$(json nolist.json 'd["answered"]')" = 1 ]

# --- 28: a 413 on the PUT of a part: the hint names part_size. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/large.json" --answer part=413
expect_exit 1 large.err env AWS_ENDPOINT_URL="$FAULT_PROXY_ENDPOINT" "$TB" datagen resnet50_h100 \
  dataset.num_files_train=1 dataset.num_samples_per_file=50 "dataset.data_folder=s3://$bucket/large" \
  storage.storage_options.s3_force_path_style=true storage.storage_options.part_size=5242880
fault_proxy_stop
contains large.err "S3 UploadPart s3://$bucket/large/train/"
contains large.err "HTTP 413"
contains large.err "lower storage.storage_options.part_size (now 5242880 bytes)"

# --- 22: a server that ignores Range (200, the whole object) fails run, not verify. ---
tb datagen ranged >ranged.out 2>ranged.err || fail "datagen for the Range case: $(cat ranged.err)"
s3_public_read "$bucket"
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/range.json" --drop-range
rc=0
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT tb run ranged train.computation_time=0 train.epochs=1 \
  reader.batch_size=20 >range.out 2>range.err || rc=$?
check "run refuses a 200 to a ranged GET (exit $rc)" [ "$rc" != 0 ]
contains range.err "ignored the Range header and sent the whole object"
contains range.err "S3 GetObject s3://$bucket/ranged/train/"
# verify reads each object whole (a range from 0 as long as the object): a 200 is that range.
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT tb datagen ranged --verify >rverify.out 2>rverify.err ||
  fail "verify of whole objects through a server that ignores Range: $(cat rverify.err)"
contains rverify.out "verify: 4 files OK"
fault_proxy_stop
check "the proxy dropped Range headers" [ "$(json range.json 'd["ranges_dropped"]')" -gt 0 ]

# --- 26: a server that ignores If-None-Match: the lock says it cannot lock the prefix. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/cond.json" --ignore-conditions
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT tb datagen nocond >nocond.out 2>nocond.err ||
  fail "datagen against a server without conditional writes: $(cat nocond.err)"
fault_proxy_stop
contains nocond.err "cannot be locked on this server: it ignores conditional writes"
# The gateway itself honours them: no such warning there.
tb datagen cond >cond.out 2>cond.err || fail "datagen: $(cat cond.err)"
! grep -q "cannot be locked" cond.err || fail "a lock warning against the gateway: $(cat cond.err)"
done_ok
