# datagen to S3 resumes after kill -9 as on a file system: its journal (objects, an object
# store cannot append) names the finished objects, so the rerun writes only the others; the
# TFRecord index objects the killed datagen wrote are its own, not "not trainbench's"; the
# journal is gone once the manifest is written. The killed datagen's requests go through
# fault_proxy.py, each delayed 300 ms, so the kill lands mid-dataset.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
at_exit fault_proxy_stop
cd "$WORK"

s3_new_bucket resume
at_exit "s3_remove_bucket $bucket"
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy.json" --delay 1 --delay-ms 300
args=(resnet50_h100 dataset.num_files_train=16 dataset.num_samples_per_file=20
  "dataset.data_folder=s3://$bucket/ds" storage.storage_options.s3_force_path_style=true
  "output.folder=$WORK/out" --threads 2)
train_objects() {  # how many data objects are under ds/train/ (asked of the gateway)
  s3_curl GET "/$bucket?list-type=2&prefix=ds%2Ftrain%2F" |
    grep -o "<Key>" | wc -l
}

AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT "$TB" datagen "${args[@]}" >first.out 2>first.err &
pid=$!
for _ in $(seq 300); do
  [ "$(train_objects)" -ge 6 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -9 "$pid" 2>/dev/null || fail "datagen ended before the kill: $(cat first.err)"
wait "$pid" 2>/dev/null || true
fault_proxy_stop
done_before=$(train_objects)
echo "killed with $done_before of 16 objects written"
check "killed mid-dataset" [ "$done_before" -ge 6 ] && [ "$done_before" -lt 16 ]

AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT "$TB" datagen "${args[@]}" --verify >second.out 2>second.err || fail "rerun: $(cat second.err)"
cat second.out second.err
skipped=$(sed -n 's/.* \([0-9]*\) of 16 files already complete.*/\1/p' second.out second.err | head -n 1)
# At most the files in flight at the kill and the last half second's are written again.
check "the rerun skips the finished objects ($skipped of $done_before)" \
  [ "${skipped:-0}" -ge $((done_before - 4)) ]
contains second.out "verify: 16 files OK"
! grep -q "not trainbench's" second.err || fail "the rerun calls its own objects foreign"
s3_curl GET "/$bucket?list-type=2&prefix=ds%2F.trainbench" >journal.xml
! grep -q "<Key>" journal.xml || fail "the journal outlived the manifest: $(cat journal.xml)"
done_ok
