# A second S3 server, s3rver 3.7.1 (npm; tests/s3/node, installed by scripts/setup.sh), which
# lacks what RGW has: no ListMultipartUploads (501) and no conditional writes. datagen (in
# multipart uploads), --verify and run work against it; the leftover-upload cleanup warns
# and goes on, the 501 asked once; the lock warns that the prefix cannot be locked.
source "$(dirname "$0")/../lib/common.sh"
s3rver=$SRC/tests/s3/node/node_modules/.bin/s3rver
skip_unless 'command -v node && [ -x "$s3rver" ]' \
  "node and tests/s3/node's packages are needed (scripts/setup.sh runs npm ci there)"
cd "$WORK"

mkdir -p data
timeout 300 node "$s3rver" -d "$WORK/data" -a 127.0.0.1 -p 0 >s3rver.log 2>&1 &
server=$!
at_exit "kill $server 2>/dev/null"
for _ in $(seq 100); do
  grep -q "listening on" s3rver.log && break
  kill -0 "$server" 2>/dev/null || fail "s3rver did not start: $(cat s3rver.log)"
  sleep 0.1
done
port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' s3rver.log | head -n 1)
[ -n "$port" ] || fail "s3rver did not say its port: $(cat s3rver.log)"
# s3rver checks SigV4 signatures with its fixed key pair.
export AWS_ENDPOINT_URL=http://127.0.0.1:$port AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER \
  AWS_REGION=us-east-1
S3_TEST_ENDPOINT=$AWS_ENDPOINT_URL
[ "$(s3_status PUT /smoke "$WORK/mk.xml")" = 200 ] || fail "cannot create a bucket: $(cat mk.xml)"

s3_smoke_second_server smoke
contains datagen.err "cannot be locked on this server: it ignores conditional writes"
contains datagen.err "S3 ListMultipartUploads s3://smoke/ds/train/"
check "the 501 warned once" [ "$(grep -c "cannot look for multipart uploads" datagen.err)" = 1 ]
done_ok
