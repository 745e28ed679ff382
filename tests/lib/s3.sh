# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): S3 helpers for the s3/ tests. Requests are signed by curl itself
# (--aws-sigv4, curl 7.88 in bookworm), so a test checks what trainbench wrote to the gateway
# with a client that shares none of trainbench's code.
#
#   s3_use_gateway        # loads $S3_GATEWAY_DIR/env; skip_unless there is one
#   s3_curl PUT /bucket                                   # prints the body, returns curl's code
#   s3_curl PUT /bucket/key -T file -o /dev/null -w '%{http_code}'
#   s3_curl GET /bucket/key -o out
#   s3_curl GET '/bucket?list-type=2&prefix=a%2F'        # query: see QUIRKS
#   s3_status PUT /bucket/key BODYFILE [curl args]      # prints the HTTP code, body in BODYFILE
#   s3_error_code FILE                                  # the <Code> of an S3 XML error
#   fault_proxy_start "${S3_TEST_ENDPOINT#http://}" STATS.json --seed 1 --cut 0.1 --delay 0.1
#                         # fault_proxy.py in front of the gateway (common.sh): FAULT_PROXY_ENDPOINT
#   S3CURL_ENDPOINT=$FAULT_PROXY_ENDPOINT s3_curl GET /bucket/key   # through it
#   fault_proxy_stop      # SIGTERM: the stats file has the final counts
#
# Environment: S3_TEST_ENDPOINT (http://127.0.0.1:PORT), AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY, AWS_REGION (all from the gateway's env file, with
# S3_TEST_VHOST_ENDPOINT, S3_TEST_TLS_ENDPOINT and S3_TEST_CA_BUNDLE: gateway.sh), S3_PAYLOAD_SHA256
# (the x-amz-content-sha256 header; UNSIGNED-PAYLOAD unless set).
#   S3CURL_ENDPOINT=http://BUCKET.localhost:PORT s3_curl GET /key      # virtual-hosted
#   S3CURL_ENDPOINT=$S3_TEST_TLS_ENDPOINT s3_curl GET /b/k --cacert "$S3_TEST_CA_BUNDLE"  # https
#
# QUIRKS (curl 7.88.1 against radosgw 16.2.15):
# - curl does not send x-amz-content-sha256 itself, and rgw needs it: s3_curl sends
#   UNSIGNED-PAYLOAD (or S3_PAYLOAD_SHA256). curl then signs with that header's value as the
#   payload hash, so a real sha256 that does not match the body is refused by rgw with
#   400 XAmzContentSHA256Mismatch.
# - curl signs the query string exactly as written: parameters must be in sorted order,
#   already percent-encoded, and a valueless one written with '=' ('?uploads=', not
#   '?uploads'), or rgw answers 403 SignatureDoesNotMatch.
# - rgw takes the region from the request's credential scope, whatever it is.
# - -X HEAD makes curl wait for a body that never comes: s3_curl uses --head for HEAD.
# - rgw refuses a chunked PUT (curl -T -, no length) with 411 MissingContentLength: send
#   Content-Length (curl -T FILE; libcurl CURLOPT_INFILESIZE_LARGE).
# - curl --data-binary also sends Content-Type: application/x-www-form-urlencoded, which rgw
#   stores with the object and returns on GET: PUT files with -T instead.
# - Bucket names need 3..63 characters ('b1' is InvalidBucketName).
# - The Host header is signed; rgw checks the signature against the Host it receives, so a
#   proxy must pass Host on unchanged (fault_proxy.py does; --rewrite-host shows the 403).

# s3_use_gateway: loads the gateway's env (S3_GATEWAY_DIR/env) unless S3_TEST_ENDPOINT is
# already set; without one, the skip rule (common.sh).
s3_use_gateway() {
  if [ -z "${S3_TEST_ENDPOINT:-}" ] && [ -n "${S3_GATEWAY_DIR:-}" ] && [ -f "$S3_GATEWAY_DIR/env" ]; then
    # shellcheck disable=SC1091
    source "$S3_GATEWAY_DIR/env"
  fi
  skip_unless '[ -n "${S3_TEST_ENDPOINT:-}" ]' \
    "no S3 gateway (S3_GATEWAY_DIR='${S3_GATEWAY_DIR:-}' has no env file: s3.gateway_start failed or skipped)"
}

# s3_curl METHOD PATH [curl args...]: one signed request to ${S3CURL_ENDPOINT:-$S3_TEST_ENDPOINT}
# PATH (path style: /bucket/key?query). Body to stdout unless the args redirect it; HTTP error
# codes do not make it fail (use -w '%{http_code}' or s3_status). Bounded by --max-time 30.
s3_curl() {
  local method=$1 path=$2
  shift 2
  local endpoint=${S3CURL_ENDPOINT:-$S3_TEST_ENDPOINT}
  local how=(-X "$method")
  [ "$method" = HEAD ] && how=(--head)
  curl -sS --max-time 30 "${how[@]}" \
    --aws-sigv4 "aws:amz:${AWS_REGION:-us-east-1}:s3" \
    --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: ${S3_PAYLOAD_SHA256:-UNSIGNED-PAYLOAD}" \
    "$@" "$endpoint$path"
}

# s3_status METHOD PATH BODYFILE [curl args...]: prints the HTTP status (000 when curl failed);
# the response body goes to BODYFILE.
s3_status() {
  local method=$1 path=$2 body=$3
  shift 3
  s3_curl "$method" "$path" -o "$body" -w '%{http_code}' "$@" || true
}

# s3_new_bucket NAME: creates a fresh bucket NAME-PID-RANDOM on the gateway (with curl) and
# sets `bucket` to its name; fails the test when the gateway refuses.
s3_new_bucket() {
  bucket=$1-$$-$RANDOM
  [ "$(s3_status PUT "/$bucket" "$WORK/mk.xml")" = 200 ] ||
    fail "cannot create bucket $bucket: $(cat "$WORK/mk.xml")"
}

# s3_public_read BUCKET: a bucket policy that lets anyone GET its objects (for fault_proxy.py
# --drop-range, whose GETs go unsigned); fails the test when the gateway refuses.
s3_public_read() {
  printf '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*",%s}]}' \
    "\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::$1/*\"" >"$WORK/policy.json"
  [ "$(s3_status PUT "/$1?policy=" "$WORK/policy.out" -T "$WORK/policy.json")" = 204 ] ||
    fail "cannot let anyone read bucket $1: $(cat "$WORK/policy.out")"
}

# s3_remove_bucket BUCKET: deletes its objects (up to 1000), aborts its open uploads and
# removes it, with curl; best effort (for at_exit: the gateway keeps objects in 1 GiB of RAM).
s3_remove_bucket() {
  local key id
  s3_curl GET "/$1?list-type=2" 2>/dev/null | grep -o '<Key>[^<]*</Key>' | sed 's:<Key>\(.*\)</Key>:\1:' |
    while read -r key; do
      s3_curl DELETE "/$1/$("$PY" -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$key")" >/dev/null 2>&1 || true
    done
  s3_curl GET "/$1?uploads=" 2>/dev/null | grep -o '<Key>[^<]*</Key><UploadId>[^<]*' |
    sed 's:<Key>\(.*\)</Key><UploadId>\(.*\):\1 \2:' | while read -r key id; do
      s3_curl DELETE "/$1/$key?uploadId=$id" >/dev/null 2>&1 || true
    done
  s3_curl DELETE "/$1" >/dev/null 2>&1 || true
}

# s3_error_code FILE: the <Code> of an S3 error document (empty when there is none).
s3_error_code() {
  sed -n 's:.*<Code>\([^<]*\)</Code>.*:\1:p' "$1" | head -n 1
}

# s3_sha256 FILE: the hex sha256 of a file (for S3_PAYLOAD_SHA256).
s3_sha256() { sha256sum "$1" | cut -d' ' -f1; }

# s3_listed_bytes LISTING.xml COUNT: the sum of a ListObjectsV2 reply's object sizes; fails
# unless it lists COUNT objects.
s3_listed_bytes() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
sizes = [int(s) for s in re.findall(r"<Size>(\d+)</Size>", t)]
assert len(sizes) == int(sys.argv[2]), t
print(sum(sizes))
PY
}

# s3_no_secret FILES...: $AWS_SECRET_ACCESS_KEY appears in none of them (nor in files under
# them).
s3_no_secret() {
  if grep -rlF -- "$AWS_SECRET_ACCESS_KEY" "$@" 2>/dev/null; then
    fail "the secret was printed or saved in the files above"
  fi
  checks=$((checks + 1))
}

# s3_smoke_second_server BUCKET: against the server at $AWS_ENDPOINT_URL (a server the suite
# starts besides the gateway), datagen in 5 MiB multipart parts with --verify, then run, of a
# small resnet50 dataset at s3://BUCKET/ds (path-style); checks verify and that run read every
# sample's bytes. datagen.err and run.out stay in the current folder for the caller's checks of
# what that server lacks.
s3_smoke_second_server() {
  local args=(resnet50_h100 dataset.num_files_train=4 dataset.num_samples_per_file=50
    "dataset.data_folder=s3://$1/ds" storage.storage_options.s3_force_path_style=true
    "output.folder=$WORK/out")
  "$TRAINBENCH" datagen "${args[@]}" storage.storage_options.part_size=5242880 --verify \
    >datagen.out 2>datagen.err || fail "datagen: $(cat datagen.err)"
  contains datagen.out "verify: 4 files OK"
  "$TRAINBENCH" run "${args[@]}" train.computation_time=0 train.epochs=1 reader.batch_size=20 \
    >run.out 2>run.err || fail "run: $(cat run.err)"
  tail -n 1 run.out >run.json
  check "run read every sample's bytes" \
    [ "$(json run.json 'd["trainbench_metrics"]["bytes_read"]')" = 22860600 ]  # 200 x (338 x 338 + 59)
}
