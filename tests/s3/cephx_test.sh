# The suite's gateway runs with cephx, as a production Ceph does: radosgw reaches RADOS with its
# own key and capabilities (client.rgw.a), a client without a key is refused, and trainbench's
# datagen, verify and run go through that gateway (over HTTPS) unchanged.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway

conf=$S3_GATEWAY_DIR/ceph.conf
ceph_as() { timeout -k 5 30 ceph -c "$conf" --connect-timeout 10 "$@"; }

check "the cluster requires cephx" grep -qx 'auth cluster required = cephx' "$conf"
ceph_as auth get client.rgw.a >"$WORK/rgw-auth" 2>&1 || fail "ceph auth get client.rgw.a: $(cat "$WORK/rgw-auth")"
check "radosgw has its own key" grep -q 'key = ' "$WORK/rgw-auth"
check "radosgw's capabilities are rw on the mon, rwx on the osds" \
  bash -c "grep -q 'caps mon = \"allow rw\"' '$WORK/rgw-auth' && grep -q 'caps osd = \"allow rwx\"' '$WORK/rgw-auth'"
if ceph_as --keyring /dev/null status >"$WORK/nokey" 2>&1; then
  fail "a client without a key reached the cluster"
fi
check "a client without a key is refused" grep -qi 'permission denied' "$WORK/nokey"

endpoint=${S3_TEST_TLS_ENDPOINT:-$S3_TEST_ENDPOINT}
s3_new_bucket cephx
at_exit "s3_remove_bucket $bucket"
opts=(dataset.data_folder="s3://$bucket/unet3d" dataset.num_files_train=8 dataset.num_samples_per_file=1 reader.batch_size=2
  dataset.record_length_bytes=262144 dataset.record_length_bytes_stdev=0
  storage.storage_options.endpoint_url="$endpoint" train.epochs=1 train.computation_time=0
  output.folder="$WORK/results")
[ -n "${S3_TEST_CA_BUNDLE:-}" ] && opts+=(storage.storage_options.ca_bundle="$S3_TEST_CA_BUNDLE")
"$TRAINBENCH" datagen unet3d_h100 "${opts[@]}" >"$WORK/datagen.out" 2>&1 || fail "datagen: $(tail -5 "$WORK/datagen.out")"
"$TRAINBENCH" datagen unet3d_h100 "${opts[@]}" --verify >"$WORK/verify.out" 2>&1 || fail "verify: $(tail -5 "$WORK/verify.out")"
check "datagen --verify passes through the cephx gateway" grep -q 'verify: 8 files OK' "$WORK/verify.out"
"$TRAINBENCH" run unet3d_h100 "${opts[@]}" --no-progress >"$WORK/run.out" 2>"$WORK/run.err" || fail "run: $(tail -5 "$WORK/run.err")"
read_bytes=$(tail -n 1 "$WORK/run.out" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["trainbench_metrics"]["bytes_read"])')
check "run reads every sample once ($read_bytes bytes)" test "$read_bytes" -ge $((8 * 262144))
done_ok
