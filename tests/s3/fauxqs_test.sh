#!/usr/bin/env bash
# A third S3 server, fauxqs 1.9.2 (npm; tests/s3/node, installed by scripts/setup.sh; its last
# version for Node 20), which ignores conditional writes: datagen (in multipart uploads),
# --verify and run work against it, and the lock warns that the prefix cannot be locked.
# fauxqs binds every interface, so the test runs it and trainbench in a network namespace of
# their own that holds loopback alone (unshare -n): nothing outside this box can reach it.
if [ -z "${TRAINBENCH_IN_NETNS:-}" ] && command -v unshare >/dev/null &&
  unshare -n true 2>/dev/null; then
  exec unshare -n env TRAINBENCH_IN_NETNS=1 bash "$0" "$@"
fi
source "$(dirname "$0")/../lib/common.sh"
fauxqs=$SRC/tests/s3/node/node_modules/.bin/fauxqs
why=""
[ -n "${TRAINBENCH_IN_NETNS:-}" ] || why="unshare -n (a network namespace of its own) is needed"
command -v node >/dev/null && [ -x "$fauxqs" ] ||
  why="node and tests/s3/node's packages are needed (scripts/setup.sh runs npm ci there)"
skip_unless '[ -z "$why" ]' "$why"
cd "$WORK"
ip link set lo up
port=45660
FAUXQS_PORT=$port FAUXQS_LOGGER=false timeout 300 node "$fauxqs" >fauxqs.log 2>&1 &
server=$!
at_exit "kill $server 2>/dev/null"
for _ in $(seq 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health")" = 200 ] && break
  kill -0 "$server" 2>/dev/null || fail "fauxqs did not start: $(cat fauxqs.log)"
  sleep 0.1
done
# fauxqs takes any key pair.
export AWS_ENDPOINT_URL=http://127.0.0.1:$port AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test \
  AWS_REGION=us-east-1
S3_TEST_ENDPOINT=$AWS_ENDPOINT_URL
[ "$(s3_status PUT /smoke "$WORK/mk.xml")" = 200 ] || fail "cannot create a bucket: $(cat mk.xml)"

s3_smoke_second_server smoke
contains datagen.err "cannot be locked on this server: it ignores conditional writes"
done_ok
