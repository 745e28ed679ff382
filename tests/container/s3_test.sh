#!/usr/bin/env bash
# S3 from the image against the suite's Ceph gateway (s3.gateway_start) over the host's
# network (--network=host: the gateway listens on 127.0.0.1): datagen into a fresh bucket with
# multipart parts and --verify, then run reading every byte; the objects are listed by curl
# (lib/s3.sh's own SigV4 client). The credentials go in by name only (-e NAME: podman takes
# the value from this environment), and the secret is in none of the outputs.
source "$(dirname "$0")/../lib/common.sh"
container_use_image
s3_use_gateway
cd "$WORK"
s3_new_bucket container
at_exit 's3_remove_bucket "$bucket"'
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
s3=(--network=host -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY -e AWS_REGION -e AWS_ENDPOINT_URL)
args=(resnet50_h100 dataset.num_files_train=3 dataset.num_samples_per_file=60
  "dataset.data_folder=s3://$bucket/r50" storage.storage_options.s3_force_path_style=true
  output.folder=/results)
mkdir -p results

container_run datagen.out datagen.err "${s3[@]}" -v "$WORK/results:/results" "$CONTAINER_IMAGE" \
  datagen "${args[@]}" storage.storage_options.part_size=5242880 --verify ||
  fail "podman run IMAGE datagen to S3 exited $?: $(cat datagen.out datagen.err)"
contains datagen.out "verify: 3 files OK"
s3_curl GET "/$bucket?list-type=2&prefix=r50%2Ftrain%2F" >list.xml
listed=$(s3_listed_bytes list.xml 3)
s3_curl GET "/$bucket/r50/trainbench_manifest.json" -o manifest.json
total=$(json manifest.json 'd["total_bytes"]')
[ "$listed" = "$(json manifest.json 'sum(f["size_bytes"] for f in d["files"])')" ] ||
  fail "curl lists $listed bytes, the manifest's files hold others"
checks=$((checks + 1))

container_run run.out run.err "${s3[@]}" -v "$WORK/results:/results" "$CONTAINER_IMAGE" run "${args[@]}" \
  train.computation_time=0 train.epochs=1 reader.batch_size=20 reader.read_threads=4 ||
  fail "podman run IMAGE run from S3 exited $?: $(cat run.out run.err)"
[ "$(json_last_line run.out 'd["trainbench_metrics"]["bytes_read"]')" = "$total" ] ||
  fail "the container's run read $(json_last_line run.out 'd["trainbench_metrics"]["bytes_read"]') bytes of $total"
dir=$(ls -d results/resnet50_h100-*/ | head -n 1)
"$PY" - "$dir/summary.json" <<'PY' || fail "the S3 run's summary on the host"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"], d["stop_reason"]
assert d["read_engine"].startswith("s3"), d["read_engine"]
assert d["storage_counters"]["s3_requests"] > 0, d["storage_counters"]
PY
checks=$((checks + 2))
s3_no_secret datagen.out datagen.err run.out run.err results
done_ok
