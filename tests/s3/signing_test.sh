# The S3 gateway checks SigV4 signatures and payload hashes: requests signed by curl's own
# --aws-sigv4 create a bucket, PUT, GET (byte-identical), list (ListObjectsV2) and DELETE; a
# wrong secret, a payload hash that is not the body's, and an unsorted query are refused.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway

bucket=signing-$$-$RANDOM
head -c 300000 /dev/urandom >"$WORK/payload"
body=$WORK/body

# status_is WANT METHOD PATH [curl args]: the request answers WANT.
status_is() {
  local want=$1 got
  shift
  got=$(s3_status "$1" "$2" "$body" "${@:3}")
  if [ "$got" != "$want" ]; then
    cat "$body" >&2 2>/dev/null || true
    fail "$1 $2: HTTP $got, expected $want"
  fi
  checks=$((checks + 1))
}

# error_is CODE: the last response body is an S3 error with that <Code>.
error_is() {
  local got
  got=$(s3_error_code "$body")
  [ "$got" = "$1" ] || {
    cat "$body" >&2
    fail "error code '$got', expected $1"
  }
  checks=$((checks + 1))
}

status_is 200 PUT "/$bucket"
status_is 200 PUT "/$bucket/dir/obj" -T "$WORK/payload"
status_is 200 GET "/$bucket/dir/obj"
check "GET returns the bytes PUT" cmp "$body" "$WORK/payload"

# The payload's real sha256 instead of UNSIGNED-PAYLOAD is accepted too.
S3_PAYLOAD_SHA256=$(s3_sha256 "$WORK/payload") status_is 200 PUT "/$bucket/hashed" -T "$WORK/payload"

# ListObjectsV2; curl signs the query as written, so its parameters go in sorted order.
status_is 200 GET "/$bucket?list-type=2&prefix=dir%2F"
contains "$body" "<Key>dir/obj</Key>"
contains "$body" "<Size>300000</Size>"
contains "$body" "<KeyCount>1</KeyCount>"
# The same query unsorted: curl signs it unsorted, rgw canonicalizes (sorts) it.
status_is 403 GET "/$bucket?prefix=dir%2F&list-type=2"
error_is SignatureDoesNotMatch

# A valueless parameter must be written with '=' to be signed as rgw canonicalizes it.
status_is 403 POST "/$bucket/multi?uploads"
error_is SignatureDoesNotMatch
status_is 200 POST "/$bucket/multi?uploads="
contains "$body" "<UploadId>"
upload_id=$(sed -n 's:.*<UploadId>\([^<]*\)</UploadId>.*:\1:p' "$body")
status_is 204 DELETE "/$bucket/multi?uploadId=$upload_id"

# A wrong secret: 403 SignatureDoesNotMatch, and nothing is written.
AWS_SECRET_ACCESS_KEY=not-the-secret status_is 403 PUT "/$bucket/forged" -T "$WORK/payload"
error_is SignatureDoesNotMatch
# An unknown access key: 403 InvalidAccessKeyId.
AWS_ACCESS_KEY_ID=NOSUCHKEY0000000000 status_is 403 PUT "/$bucket/forged" -T "$WORK/payload"
error_is InvalidAccessKeyId
status_is 404 GET "/$bucket/forged"
error_is NoSuchKey

# A signed payload hash that is not the body's: 400 XAmzContentSHA256Mismatch.
printf 'something else' >"$WORK/other"
S3_PAYLOAD_SHA256=$(s3_sha256 "$WORK/other") status_is 400 PUT "/$bucket/tampered" -T "$WORK/payload"
error_is XAmzContentSHA256Mismatch
status_is 404 GET "/$bucket/tampered"

# DELETE: the objects, then the (then empty) bucket.
status_is 204 DELETE "/$bucket/dir/obj"
status_is 204 DELETE "/$bucket/hashed"
status_is 404 GET "/$bucket/dir/obj"
status_is 204 DELETE "/$bucket"
status_is 404 GET "/$bucket?list-type=2"
error_is NoSuchBucket
done_ok
