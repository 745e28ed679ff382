# trainbench stage from S3: one object (ranged GETs signed with the endpoint's SigV4; the
# single-part ETag is the object's MD5 and is checked), and a prefix (every object under
# it, folders kept). A key with nothing at or under it fails with exit 1.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT

bucket=stage-$$-$RANDOM
head -c 20000000 /dev/urandom >"$WORK/a.bin"
head -c 1234567 /dev/urandom >"$WORK/b.bin"
check "bucket" [ "$(s3_status PUT "/$bucket" "$WORK/body")" = 200 ]
check "put a" [ "$(s3_status PUT "/$bucket/data/a.bin" "$WORK/body" -T "$WORK/a.bin")" = 200 ]
check "put b" [ "$(s3_status PUT "/$bucket/data/sub/b.bin" "$WORK/body" -T "$WORK/b.bin")" = 200 ]

# One object: its ETag (MD5) is the checksum.
expect_exit 0 "$WORK/out1" "$TRAINBENCH" stage "s3://$bucket/data/a.bin" "$WORK/one" \
  --chunk-size 4MiB --no-progress --output "$WORK/results" \
  --s3-option s3_force_path_style=true
cat "$WORK/out1"
check "object staged" cmp "$WORK/a.bin" "$WORK/one/a.bin"
check "checked against the ETag" grep -q '"checksum": "md5 (S3 ETag)"' "$(sed -n 's/^results: //p' "$WORK/out1")/summary.json"

# A prefix: every object under it.
expect_exit 0 "$WORK/out2" "$TRAINBENCH" stage "s3://$bucket/data" "$WORK/all" \
  --chunk-size 1MiB --streams 3 --no-progress --output "$WORK/results" \
  --s3-option s3_force_path_style=true --op-log "$WORK/prefix.tsv.zst"
check "a.bin under the prefix" cmp "$WORK/a.bin" "$WORK/all/a.bin"
check "sub/b.bin under the prefix" cmp "$WORK/b.bin" "$WORK/all/sub/b.bin"
# Its op-log: a HEAD and the ranged GETs of each object, named under the s3:// SOURCE (the
# log's endpoint), so a replay with no --target reads the same objects from the bucket.
check "the prefix's op-log" "$PY" - "$WORK/prefix.tsv.zst" "s3://$bucket/data" <<'PY'
import csv, io, subprocess, sys
text = subprocess.run(["zstd", "-q", "-d", "-c", sys.argv[1]], check=True, capture_output=True, text=True).stdout
rows = list(csv.DictReader(io.StringIO(text), delimiter="\t"))
assert {r["endpoint"] for r in rows} == {sys.argv[2]}, {r["endpoint"] for r in rows}
heads = sorted(r["file"] for r in rows if r["op"] == "HEAD")
assert heads == ["a.bin", "sub/b.bin"], heads
gets = {}
for r in rows:
    if r["op"] == "GET":
        assert not r["error"], r
        gets[r["file"]] = gets.get(r["file"], 0) + int(r["bytes"])
assert gets == {"a.bin": 20000000, "sub/b.bin": 1234567}, gets
PY
expect_exit 0 "$WORK/replay" "$TRAINBENCH" replay "$WORK/prefix.tsv.zst" --mode parallel \
  --no-progress --s3-option s3_force_path_style=true --output "$WORK/replayed"
check "the replay read the same bytes from the bucket" [ "$(json \
  "$(json_last_line "$WORK/replay" 'd["trainbench"]["results"]')/summary.json" \
  '[(o["replayed"]["bytes"], o["replayed"]["errors"]) for o in d["ops"] if o["op"] == "GET"][0]')" = "(21234567, 0)" ]

expect_exit 1 "$WORK/out3" "$TRAINBENCH" stage "s3://$bucket/nothing-here" "$WORK/none" \
  --no-progress --output "$WORK/results" --s3-option s3_force_path_style=true
contains "$WORK/out3" "holds no objects"

# A prefix of many objects through the fault proxy, every request delayed 300 ms: the HEADs
# that learn the objects' sizes and ETags go out --streams at a time (one after another,
# the 24 HEADs alone would take 7.2 s), and every S3 request (the listing's, the HEADs, the
# ranged GETs) is a request of the origin's row in the account.
mkdir -p "$WORK/many"
for i in $(seq -w 1 24); do
  head -c $((1000 + 10#$i)) /dev/urandom >"$WORK/many/o$i.bin"
  check "put o$i" [ "$(s3_status PUT "/$bucket/many/o$i.bin" "$WORK/body" -T "$WORK/many/o$i.bin")" = 200 ]
done
check "proxy" fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy.json" --delay 1 --delay-ms 300
expect_exit 0 "$WORK/out4" "$TRAINBENCH" stage "s3://$bucket/many" "$WORK/many-staged" \
  --streams 8 --no-progress --output "$WORK/results" --s3-option s3_force_path_style=true \
  --s3-option "endpoint_url=$FAULT_PROXY_ENDPOINT"
fault_proxy_stop
cat "$WORK/out4"
check "every object under the prefix" diff -r -x .trainbench.lock "$WORK/many" "$WORK/many-staged"
summary=$(sed -n 's/^results: //p' "$WORK/out4")/summary.json
py_get() { /usr/bin/python3 -c "import json,sys; j=json.load(open(sys.argv[1])); p=json.load(open(sys.argv[2])); print($1)" "$summary" "$WORK/proxy.json"; }
check "a HEAD per object, and the key's" [ "$(py_get 'p["by_method"]["HEAD"]')" = 25 ]
check "the account counts every S3 request" [ "$(py_get 'j["sources"][0]["requests"] == p["by_method"]["HEAD"] + p["by_method"]["GET"]')" = True ]
check "the HEADs went out together" [ "$(py_get 'j["wall_s"] < 5')" = True ]
py_get '"wall %.2f s, %d requests (proxy: %s)" % (j["wall_s"], j["sources"][0]["requests"], p["by_method"])'
for i in $(seq -w 1 24); do s3_curl DELETE "/$bucket/many/o$i.bin" >/dev/null || true; done

s3_curl DELETE "/$bucket/data/a.bin" >/dev/null || true
s3_curl DELETE "/$bucket/data/sub/b.bin" >/dev/null || true
s3_curl DELETE "/$bucket" >/dev/null || true
done_ok
