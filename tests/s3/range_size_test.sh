# Large samples on S3 are read in 8 MiB ranges by default (storage_options.range_size, as the
# AWS SDKs' and rclone's download parts), not reader.transfer_size's 256 KiB: two 16 MiB
# samples cost 4 GETs, not 128; range_size=0 gives transfer_size pieces back; every byte is
# read either way.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"

s3_new_bucket ranges
at_exit "s3_remove_bucket $bucket"
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
args=(unet3d_h100 dataset.format=npy dataset.num_files_train=2 dataset.num_samples_per_file=1
  dataset.record_length_bytes=16777216 dataset.record_length_bytes_stdev=0
  "dataset.data_folder=s3://$bucket/d" storage.storage_options.s3_force_path_style=true)
"$TB" datagen "${args[@]}" >datagen.out 2>&1 || fail "datagen: $(cat datagen.out)"
# gets [OPTIONS...]: a one-epoch run's GET count (the manifest's GET included) and bytes read.
gets() {
  rm -rf "$WORK/out"
  "$TB" run "${args[@]}" "output.folder=$WORK/out" train.computation_time=0 train.epochs=1 \
    reader.batch_size=1 "$@" >run.out 2>run.err || fail "run $*: $(cat run.err)"
  local dir
  dir=$(ls -d "$WORK"/out/*/ | head -n 1)
  tail -n 1 run.out >run.json
  echo "$(json "$dir/summary.json" 'd["storage_latency_ms"]["GET"]["count"]')" \
    "$(json run.json 'd["trainbench_metrics"]["bytes_read"]')"
}
read -r default_gets default_bytes <<<"$(gets)"
read -r small_gets small_bytes <<<"$(gets storage.storage_options.range_size=0)"
echo "GETs: default $default_gets, range_size=0 $small_gets"
check "8 MiB ranges by default ($default_gets GETs)" [ "$default_gets" = 5 ]
check "transfer_size pieces with range_size=0 ($small_gets GETs)" [ "$small_gets" = 129 ]
check "every byte read both ways" [ "$default_bytes" = "$small_bytes" ] && [ "$default_bytes" -ge 33554432 ]
done_ok
