# shellcheck shell=bash
# S3 helpers for the shell tests: sourced, not run. Requests are signed by curl itself
# (--aws-sigv4, curl 7.88 in bookworm), so a test checks what trainbench wrote to the gateway
# with a client that shares none of trainbench's code.
#
#   source tests/s3/lib.sh
#   s3_use_gateway        # loads $S3_GATEWAY_DIR/env; exits 77 (skip) when there is none,
#                         # or fails when CI=true
#   s3curl PUT /bucket                                   # prints the body, returns curl's code
#   s3curl PUT /bucket/key -T file -o /dev/null -w '%{http_code}'
#   s3curl GET /bucket/key -o out
#   s3curl GET '/bucket?list-type=2&prefix=a%2F'        # query: see QUIRKS
#   s3_status PUT /bucket/key BODYFILE [curl args]      # prints the HTTP code, body in BODYFILE
#   s3_error_code FILE                                  # the <Code> of an S3 XML error
#   s3_start_proxy STATS.json --seed 1 --slowdown 0.1 --cut 0.1 --delay 0.1
#                         # fault_proxy.py in front of the gateway: S3_PROXY_ENDPOINT, S3_PROXY_PID
#   S3CURL_ENDPOINT=$S3_PROXY_ENDPOINT s3curl GET /bucket/key   # through it
#   s3_stop_proxy         # SIGTERM: the stats file has the final counts
#
# Environment: S3_TEST_ENDPOINT (http://127.0.0.1:PORT), AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY, AWS_REGION (all from the gateway's env file, with
# S3_TEST_VHOST_ENDPOINT, S3_TEST_TLS_ENDPOINT and S3_TEST_CA_BUNDLE: gateway.sh), S3_PAYLOAD_SHA256
# (the x-amz-content-sha256 header; UNSIGNED-PAYLOAD unless set).
#   S3CURL_ENDPOINT=http://BUCKET.localhost:PORT s3curl GET /key      # virtual-hosted
#   S3CURL_ENDPOINT=$S3_TEST_TLS_ENDPOINT s3curl GET /b/k --cacert "$S3_TEST_CA_BUNDLE"  # https
#
# QUIRKS (curl 7.88.1 against radosgw 16.2.15):
# - curl does not send x-amz-content-sha256 itself, and rgw needs it: s3curl sends
#   UNSIGNED-PAYLOAD (or S3_PAYLOAD_SHA256). curl then signs with that header's value as the
#   payload hash, so a real sha256 that does not match the body is refused by rgw with
#   400 XAmzContentSHA256Mismatch.
# - curl signs the query string exactly as written: parameters must be in sorted order,
#   already percent-encoded, and a valueless one written with '=' ('?uploads=', not
#   '?uploads'), or rgw answers 403 SignatureDoesNotMatch.
# - rgw takes the region from the request's credential scope, whatever it is.
# - -X HEAD makes curl wait for a body that never comes: s3curl uses --head for HEAD.
# - rgw refuses a chunked PUT (curl -T -, no length) with 411 MissingContentLength: send
#   Content-Length (curl -T FILE; libcurl CURLOPT_INFILESIZE_LARGE).
# - curl --data-binary also sends Content-Type: application/x-www-form-urlencoded, which rgw
#   stores with the object and returns on GET: PUT files with -T instead.
# - Bucket names need 3..63 characters ('b1' is InvalidBucketName).
# - The Host header is signed; rgw checks the signature against the Host it receives, so a
#   proxy must pass Host on unchanged (fault_proxy.py does; --rewrite-host shows the 403).

# Resolved now: tests cd into their scratch folder after sourcing this file.
S3_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# s3_use_gateway: loads the gateway's env (S3_GATEWAY_DIR/env) unless S3_TEST_ENDPOINT is
# already set. Without one: exit 77 (skip) on a developer machine, a failure when CI=true.
s3_use_gateway() {
  if [ -z "${S3_TEST_ENDPOINT:-}" ] && [ -n "${S3_GATEWAY_DIR:-}" ] && [ -f "$S3_GATEWAY_DIR/env" ]; then
    # shellcheck disable=SC1091
    source "$S3_GATEWAY_DIR/env"
  fi
  if [ -z "${S3_TEST_ENDPOINT:-}" ]; then
    if [ "${CI:-}" = true ]; then
      echo "FAIL: no S3 gateway (S3_GATEWAY_DIR='${S3_GATEWAY_DIR:-}' has no env file)" >&2
      exit 1
    fi
    echo "SKIP: no S3 gateway (S3_GATEWAY_DIR='${S3_GATEWAY_DIR:-}' has no env file)" >&2
    exit 77
  fi
}

# s3curl METHOD PATH [curl args...]: one signed request to ${S3CURL_ENDPOINT:-$S3_TEST_ENDPOINT}
# PATH (path style: /bucket/key?query). Body to stdout unless the args redirect it; HTTP error
# codes do not make it fail (use -w '%{http_code}' or s3_status). Bounded by --max-time 30.
s3curl() {
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
  s3curl "$method" "$path" -o "$body" -w '%{http_code}' "$@" || true
}

# json FILE EXPR: a Python expression over the parsed JSON document `d`.
json() { /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# s3_mpirun ARGS...: mpirun on loopback for the tests' ranks (oversubscribed, 120 s at most);
# skips the test (77) without Open MPI, or fails it when CI=true.
s3_mpirun() {
  command -v mpirun >/dev/null || { [ "${CI:-}" = true ] && fail "no mpirun"; exit 77; }
  timeout -k 5 120 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$@"
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
  s3curl GET "/$1?list-type=2" 2>/dev/null | grep -o '<Key>[^<]*</Key>' | sed 's:<Key>\(.*\)</Key>:\1:' |
    while read -r key; do
      s3curl DELETE "/$1/$("$PY" -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$key")" >/dev/null 2>&1 || true
    done
  s3curl GET "/$1?uploads=" 2>/dev/null | grep -o '<Key>[^<]*</Key><UploadId>[^<]*' |
    sed 's:<Key>\(.*\)</Key><UploadId>\(.*\):\1 \2:' | while read -r key id; do
      s3curl DELETE "/$1/$key?uploadId=$id" >/dev/null 2>&1 || true
    done
  s3curl DELETE "/$1" >/dev/null 2>&1 || true
}

# s3_error_code FILE: the <Code> of an S3 error document (empty when there is none).
s3_error_code() {
  sed -n 's:.*<Code>\([^<]*\)</Code>.*:\1:p' "$1" | head -n 1
}

# s3_sha256 FILE: the hex sha256 of a file (for S3_PAYLOAD_SHA256).
s3_sha256() { sha256sum "$1" | cut -d' ' -f1; }

# s3_start_proxy STATSFILE [fault_proxy.py args...]: starts tests/s3/fault_proxy.py in front
# of $S3_TEST_ENDPOINT on a free port (at most 10 s to listen) and sets S3_PROXY_PID and
# S3_PROXY_ENDPOINT (http://127.0.0.1:PORT: sign for it and connect to it, e.g.
# S3CURL_ENDPOINT=$S3_PROXY_ENDPOINT s3curl ...). The stats file is JSON, rewritten after
# every request. One proxy at a time per shell; s3_stop_proxy ends it.
s3_start_proxy() {
  local stats=$1
  shift
  local portfile=$stats.port
  rm -f "$portfile"
  /usr/bin/python3 "$S3_LIB_DIR/fault_proxy.py" \
    --upstream "${S3_TEST_ENDPOINT#http://}" --port-file "$portfile" --stats "$stats" \
    --max-seconds 300 "$@" &
  S3_PROXY_PID=$!
  for _ in $(seq 100); do
    [ -s "$portfile" ] && break
    kill -0 "$S3_PROXY_PID" 2>/dev/null || break
    sleep 0.1
  done
  [ -s "$portfile" ] || {
    echo "FAIL: fault_proxy.py did not start" >&2
    return 1
  }
  # shellcheck disable=SC2034 # for the caller
  S3_PROXY_ENDPOINT=http://127.0.0.1:$(cat "$portfile")
}

# _s3_running PID: the process exists and is not a zombie.
_s3_running() {
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
  [ -n "$state" ] && [ "$state" != Z ]
}

# s3_stop_proxy: SIGTERM to the proxy (it writes its stats file), at most 5 s wait.
s3_stop_proxy() {
  [ -n "${S3_PROXY_PID:-}" ] || return 0
  kill -TERM "$S3_PROXY_PID" 2>/dev/null || true
  for _ in $(seq 50); do
    _s3_running "$S3_PROXY_PID" || break
    sleep 0.1
  done
  kill -KILL "$S3_PROXY_PID" 2>/dev/null || true
  wait "$S3_PROXY_PID" 2>/dev/null || true
  S3_PROXY_PID=
}

# listed_bytes LISTING.xml COUNT: the sum of a ListObjectsV2 reply's object sizes; fails
# unless it lists COUNT objects.
listed_bytes() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
sizes = [int(s) for s in re.findall(r"<Size>(\d+)</Size>", t)]
assert len(sizes) == int(sys.argv[2]), t
print(sum(sizes))
PY
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
    [ "$(json run.json 'd["trainbench_metrics"]["bytes_read"]')" = 22944000 ]
}
