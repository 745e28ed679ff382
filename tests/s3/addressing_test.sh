# Virtual-hosted addressing (the bucket in the host name: http://BUCKET.localhost:PORT/key)
# against the gateway, whose DNS name is localhost (gateway.sh; libcurl resolves *.localhost
# to the loopback itself). DLIO's s3_force_path_style=false with a host-name endpoint gives
# virtual-hosted requests, which rgw only serves (and only accepts the SigV4 signatures of)
# when it takes the bucket from the Host header: datagen writes and run reads a dataset that
# way, every byte written is read, and rgw's access log shows request lines without the
# bucket (/PREFIX/key, not /BUCKET/PREFIX/key). An IP endpoint stays path style even with
# s3_force_path_style=false, and localhost with it unset (local servers without a DNS name);
# a wrong secret is refused over virtual-hosted requests too. curl's own SigV4 client reads the
# objects back virtual-hosted. Bounded: ~10 s.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"
[ -n "${S3_TEST_VHOST_ENDPOINT:-}" ] || fail "the gateway's env has no S3_TEST_VHOST_ENDPOINT (an old gateway.sh?)"
rgw_log=$S3_GATEWAY_DIR/log/client.rgw.a.log
[ -f "$rgw_log" ] || fail "no rgw log at $rgw_log"

s3_new_bucket addr
prefix=vh$RANDOM$$ # unique in the log: request lines are matched by it
secret=$AWS_SECRET_ACCESS_KEY
port=${S3_TEST_VHOST_ENDPOINT##*:}
vhost=http://$bucket.localhost:$port # what curl signs for and connects to, virtual-hosted

# json FILE EXPR
# requests WANT_STYLE PREFIX METHOD MIN: rgw's access log (beast lines: "METHOD TARGET HTTP/1.1"
# STATUS ...; the test's own curl requests, user agent curl/..., left out) has at least MIN
# successful METHOD requests for objects under PREFIX, all in WANT_STYLE (virtual:
# /PREFIX/...; path: /BUCKET/PREFIX/...), and none in the other style.
# rgw's log thread writes a little after the response: waits up to 5 s for MIN.
requests() {
  local style=$1 p=$2 method=$3 min=$4
  for _ in $(seq 50); do
    if "$PY" - "$rgw_log" "$style" "$bucket" "$p" "$method" "$min" >requests.out 2>&1 <<'PY'; then
import re, sys
log, style, bucket, prefix, method, want = sys.argv[1:7]
line = re.compile(r'beast: \S+ \S+ - \S+ \[[^]]*\] "(\w+) (\S+) HTTP/[\d.]+" (\d+)')
virtual = path = bad = 0
for m in map(line.search, open(log, encoding="utf-8", errors="replace")):
    if not m or m.group(1) != method or '"curl/' in m.string:  # the test's own curl
        continue
    target, status = m.group(2), int(m.group(3))
    if target.startswith("/%s/" % prefix):
        virtual += 1
    elif target.startswith("/%s/%s/" % (bucket, prefix)):
        path += 1
    else:
        continue
    # 412: the lock's second If-None-Match PUT, which must fail (it tells the server honours it);
    # 404: the GET that looks for a live lease before the lock's first PUT finds none.
    bad += status >= 300 and status != 412 and not (status == 404 and target.endswith("/.trainbench.lock"))
mine, other = (virtual, path) if style == "virtual" else (path, virtual)
print(f"{method} under {prefix}: {virtual} virtual-hosted, {path} path-style, {bad} failed")
sys.exit(0 if mine >= int(want) and other == 0 and bad == 0 else 1)
PY
      checks=$((checks + 1))
      return 0
    fi
    sleep 0.1
  done
  fail "rgw's log: expected >= $min $style-style $method requests under $p only: $(cat requests.out)"
}

# --- Virtual-hosted: DLIO's s3_force_path_style=false and a host-name endpoint. ---
export AWS_ENDPOINT_URL=$S3_TEST_VHOST_ENDPOINT
common=(resnet50_h100 dataset.num_files_train=4 dataset.num_samples_per_file=20
  "dataset.data_folder=s3://$bucket/$prefix" storage.storage_options.s3_force_path_style=false
  "output.folder=$WORK/out")
"$TB" datagen "${common[@]}" --verify >datagen.out 2>datagen.err || { cat datagen.err; fail "datagen virtual-hosted"; }
grep -q "verify: 4 files OK" datagen.out || fail "datagen --verify virtual-hosted: $(cat datagen.out)"
requests virtual "$prefix" PUT 5 # 4 objects and the manifest
# curl lists (virtual-hosted, its own signing) what was written: the bytes of the 4 objects.
S3CURL_ENDPOINT=$vhost s3_curl GET "/?list-type=2&prefix=$prefix%2Ftrain%2F" -o list.xml
written=$(s3_listed_bytes list.xml 4) || fail "listing virtual-hosted: $(cat list.xml)"
S3CURL_ENDPOINT=$vhost s3_curl GET "/$prefix/trainbench_manifest.json" -o manifest.json
check "the manifest read virtual-hosted is JSON" json manifest.json 'd["total_bytes"]' >/dev/null
[ "$(json manifest.json 'd["total_bytes"]')" = "$written" ] ||
  fail "the manifest says $(json manifest.json 'd["total_bytes"]') bytes, the objects hold $written"
# The same object by both addressing styles: the same bytes.
key=$(json manifest.json 'd["files"][0]["path"]')
S3CURL_ENDPOINT=$vhost s3_curl GET "/$prefix/$key" -o by-host.obj
s3_curl GET "/$bucket/$prefix/$key" -o by-path.obj
check "one object, virtual-hosted and path style" cmp by-host.obj by-path.obj

# Run: every byte written is read, virtual-hosted (2 epochs, 2 read threads).
"$TB" run "${common[@]}" train.computation_time=0 train.epochs=2 reader.batch_size=10 \
  reader.read_threads=2 >run.out 2>run.err || { cat run.err; fail "run virtual-hosted"; }
tail -n 1 run.out >run.json
[ "$(json run.json 'd["trainbench_metrics"]["bytes_read"]')" = $((written * 2)) ] ||
  fail "run read $(json run.json 'd["trainbench_metrics"]["bytes_read"]') bytes, wrote $written x 2 epochs"
requests virtual "$prefix" GET 160 # 80 samples x 2 epochs, at least a GET each
s3_no_secret datagen.out datagen.err run.out run.err "$WORK/out"

# DLIO's own keys (as in its *_s3.yaml workloads: storage_root, endpoint_url, s3_force_path_style
# False) and no AWS variables: virtual-hosted too.
rm -rf "$WORK/out"
env -u AWS_ENDPOINT_URL -u AWS_SECRET_ACCESS_KEY -u AWS_ACCESS_KEY_ID "$TB" run resnet50_h100 \
  dataset.num_files_train=4 dataset.num_samples_per_file=20 storage.storage_type=s3 \
  "storage.storage_root=$bucket" "dataset.data_folder=$prefix" \
  "storage.storage_options.endpoint_url=$S3_TEST_VHOST_ENDPOINT" storage.storage_options.s3_force_path_style=False \
  "storage.storage_options.access_key_id=$AWS_ACCESS_KEY_ID" "storage.storage_options.secret_access_key=$secret" \
  train.computation_time=0 train.epochs=1 reader.batch_size=10 "output.folder=$WORK/out" >dlio.out 2>dlio.err ||
  { cat dlio.err; fail "run with DLIO's storage keys, virtual-hosted"; }
tail -n 1 dlio.out >dlio.json
[ "$(json dlio.json 'd["trainbench_metrics"]["bytes_read"]')" = "$written" ] || fail "DLIO-keyed run bytes"
requests virtual "$prefix" GET 240
s3_no_secret dlio.out dlio.err "$WORK/out"

# A wrong secret: rgw checks virtual-hosted signatures as well.
AWS_SECRET_ACCESS_KEY=wrong-$secret "$TB" run "${common[@]}" >bad.out 2>bad.err && fail "a wrong secret was accepted"
grep -q "HTTP 403 SignatureDoesNotMatch" bad.err && grep -q "check the secret access key" bad.err ||
  fail "wrong-secret message: $(cat bad.err)"
s3_no_secret bad.out bad.err

# --- Path style: an IP endpoint even with s3_force_path_style=false; localhost by default. ---
small=(resnet50_h100 dataset.num_files_train=1 dataset.num_samples_per_file=4 "output.folder=$WORK/out")
AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT "$TB" datagen "${small[@]}" "dataset.data_folder=s3://$bucket/$prefix-ip" \
  storage.storage_options.s3_force_path_style=false >ip.out 2>ip.err || { cat ip.err; fail "datagen to an IP endpoint"; }
requests path "$prefix-ip" PUT 2
"$TB" datagen "${small[@]}" "dataset.data_folder=s3://$bucket/$prefix-auto" >auto.out 2>auto.err ||
  { cat auto.err; fail "datagen to localhost, s3_force_path_style unset"; }
requests path "$prefix-auto" PUT 2
"$TB" datagen "${small[@]}" "dataset.data_folder=s3://$bucket/$prefix-forced" \
  storage.storage_options.s3_force_path_style=true >forced.out 2>forced.err ||
  { cat forced.err; fail "datagen to localhost, s3_force_path_style=true"; }
requests path "$prefix-forced" PUT 2

# clean, virtual-hosted: lists and deletes; curl then finds nothing under the prefix.
"$TB" clean "${common[@]}" --yes >clean.out 2>&1 || fail "clean --yes virtual-hosted: $(cat clean.out)"
requests virtual "$prefix" DELETE 5
! S3CURL_ENDPOINT=$vhost s3_curl GET "/?list-type=2&prefix=$prefix%2F" | grep -q "<Key>" ||
  fail "objects remain after clean --yes"
done_ok
