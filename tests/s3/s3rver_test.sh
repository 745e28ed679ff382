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

# A second writer of a prefix a running datagen holds: s3rver lets its If-None-Match PUT
# replace the lease, so before that PUT it reads the lease there and is refused, naming the
# holder (issue 34: it replaced all of the first writer's objects, and both exited 0). The
# first writes one file at a time through a proxy that delays every request by 300 ms.
[ "$(s3_status PUT /lock "$WORK/mk.xml")" = 200 ] || fail "cannot create a bucket: $(cat mk.xml)"
first=(resnet50_h100 dataset.format=npy dataset.num_files_train=12 dataset.num_samples_per_file=1
  dataset.record_length_bytes=4096 dataset.record_length_bytes_stdev=0
  "dataset.data_folder=s3://lock/ds" storage.storage_options.s3_force_path_style=true)
fault_proxy_start "127.0.0.1:$port" "$WORK/proxy.json" --delay 1 --delay-ms 300
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT "$TB" datagen "${first[@]}" -j 1 >first.out 2>first.err &
writer=$!
for _ in $(seq 100); do  # bounded: 10 s
  [ "$(s3_status HEAD /lock/ds/.trainbench.lock /dev/null)" = 200 ] && break
  sleep 0.1
done
expect_exit 1 second.out "$TB" datagen "${first[@]}" dataset.record_length_bytes=8192
contains second.out "is being written by another trainbench (pid $writer on "
contains second.out "wait for it to finish"
wait $writer || { cat first.err; fail "the first datagen failed"; }
fault_proxy_stop
contains first.err "a trainbench started later is refused once it reads this lease"
# The first writer's files, byte for byte: the same datagen into a local folder.
"$TB" datagen "${first[@]}" "dataset.data_folder=$WORK/local" >local.out 2>&1 || { cat local.out; fail "local datagen"; }
for f in "$WORK"/local/train/*.npy; do
  s3_curl GET "/lock/ds/train/$(basename "$f")" -o got.npy
  check "$(basename "$f") is the first writer's" cmp -s got.npy "$f"
done
check "12 files compared" [ "$(ls "$WORK"/local/train/*.npy | wc -l)" = 12 ]
done_ok
