#!/usr/bin/env bash
# Open MPI over S3: datagen by 3 ranks into one prefix (each rank its files, rank 0 the
# manifest) leaves the same objects and manifest as one process; run by 2 ranks x 2
# accelerators reads every object byte x epochs through the ranks' s3 engines, and rank 0's
# summary sums their requests and merges their GET latencies.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"

s3_new_bucket ranks
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
common=(resnet50_h100 dataset.num_files_train=6 dataset.num_samples_per_file=20
  storage.storage_options.s3_force_path_style=true "output.folder=$WORK/out" --no-progress)

"$TB" datagen "${common[@]}" "dataset.data_folder=s3://$bucket/one" >one.out 2>&1 ||
  { cat one.out; fail "datagen to S3, one process"; }
mpi_launch 120 -np 3 "$TB" datagen "${common[@]}" "dataset.data_folder=s3://$bucket/ranks" \
  >dg.out 2>&1 || { cat dg.out; fail "datagen to S3 over 3 ranks"; }
grep -q "^datagen: 6 files (6 written" dg.out || fail "datagen line: $(cat dg.out)"
s3_curl GET "/$bucket/one/trainbench_manifest.json" -o one.json
s3_curl GET "/$bucket/ranks/trainbench_manifest.json" -o ranks.json
cmp one.json ranks.json || fail "the manifest of 3 ranks differs from one process's"
total=$(json ranks.json 'd["total_bytes"]')

mpi_launch 120 -np 2 "$TB" run "${common[@]}" "dataset.data_folder=s3://$bucket/ranks" \
  train.computation_time=0 reader.batch_size=10 train.epochs=2 -a 2 >run.out 2>run.err ||
  { cat run.err; fail "run from S3 over 2 ranks"; }
tail -n 1 run.out >line.json
[ "$(json line.json 'd["trainbench_metrics"]["bytes_read"]')" = $((2 * total)) ] ||
  fail "bytes read $(json line.json 'd["trainbench_metrics"]["bytes_read"]') != 2 x $total"
s=$(ls -t "$WORK"/out/*/summary.json | head -n 1)
gets=$(json "$s" 'd["storage_latency_ms"]["GET"]["count"]')
per_rank=$(json "$s" 'sum(json.load(open(f))["storage_latency_ms"]["GET"]["count"] for f in __import__("glob").glob("'"$(dirname "$s")"'/rank-*.json"))')
[ "$gets" -gt 0 ] && [ "$gets" = "$per_rank" ] || fail "GET latencies not merged: $gets vs ranks' $per_rank"
[ "$(json "$s" 'd["storage_counters"]["s3_requests"] >= '"$gets")" = True ] || fail "requests not summed"
echo OK
