# trainbench stage from S3: one object (ranged GETs signed with the endpoint's SigV4; the
# single-part ETag is the object's MD5 and is checked), and a prefix (every object under
# it, folders kept). A key with nothing at or under it fails with exit 1.
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/lib.sh"
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
  --s3-option s3_force_path_style=true
check "a.bin under the prefix" cmp "$WORK/a.bin" "$WORK/all/a.bin"
check "sub/b.bin under the prefix" cmp "$WORK/b.bin" "$WORK/all/sub/b.bin"

expect_exit 1 "$WORK/out3" "$TRAINBENCH" stage "s3://$bucket/nothing-here" "$WORK/none" \
  --no-progress --output "$WORK/results" --s3-option s3_force_path_style=true
contains "$WORK/out3" "holds no objects"

s3curl DELETE "/$bucket/data/a.bin" >/dev/null || true
s3curl DELETE "/$bucket/data/sub/b.bin" >/dev/null || true
s3curl DELETE "/$bucket" >/dev/null || true
done_ok
