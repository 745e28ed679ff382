#!/usr/bin/env bash
# An unknown key under storage.storage_options is a usage error naming the nearest option,
# like every other key: a typo (endpont_url) must not send signed requests to AWS instead.
source "$(dirname "$0")/../lib/common.sh"
unset AWS_ENDPOINT_URL AWS_ENDPOINT_URL_S3
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test HOME=$WORK
for command in datagen run; do
  expect_exit 2 "$WORK/out" timeout 60 "$TRAINBENCH" "$command" resnet50_h100 \
    dataset.data_folder=s3://bench/typo storage.storage_options.endpont_url=http://127.0.0.1:9 \
    storage.storage_options.s3_max_attempts=1
  contains "$WORK/out" "storage.storage_options"
  contains "$WORK/out" "unknown option 'endpont_url' (did you mean 'endpoint_url'?)"
  if grep -q amazonaws "$WORK/out"; then cat "$WORK/out"; fail "$command went to AWS"; fi
done
# Where the config is read, whatever the storage (a local dataset too), as in a workload file.
expect_exit 2 "$WORK/out" "$TRAINBENCH" config resnet50_h100 storage.storage_options.regoin=x
contains "$WORK/out" "unknown option 'regoin' (did you mean 'region'?)"
printf 'storage:\n  storage_options:\n    endpont_url: http://127.0.0.1:9\n' >"$WORK/w.yaml"
expect_exit 2 "$WORK/out" "$TRAINBENCH" config "$WORK/w.yaml"
contains "$WORK/out" "w.yaml:3: storage.storage_options: expected a map of option: value; unknown option 'endpont_url'"
# stage's --s3-option goes through the same check.
expect_exit 2 "$WORK/out" timeout 60 "$TRAINBENCH" stage s3://bench/typo/a.bin "$WORK/dest" \
  --s3-option regoin=us-east-1 --s3-option endpoint_url=http://127.0.0.1:9
contains "$WORK/out" "(did you mean 'region'?)"
# A sweep's grid axis is an override applied per point: checked as the workload loads too.
expect_exit 2 "$WORK/out" timeout 60 "$TRAINBENCH" sweep resnet50_h100 \
  dataset.data_folder=s3://bench/typo storage.storage_options.regoin=a,b --no-progress
contains "$WORK/out" "unknown option 'regoin' (did you mean 'region'?)"
# A sai3-bench config takes --s3-option, checked before its prepare.
cat >"$WORK/s.yaml" <<'EOF'
target: s3://bench/typo/
duration: 1s
workload:
  - op: get
    path: "*"
EOF
expect_exit 2 "$WORK/out" timeout 60 "$TRAINBENCH" run "$WORK/s.yaml" --s3-option endpont_url=x \
  --no-progress
contains "$WORK/out" "--s3-option unknown option 'endpont_url' (did you mean 'endpoint_url'?)"
if grep -q amazonaws "$WORK/out"; then cat "$WORK/out"; fail "sai3-bench went to AWS"; fi
done_ok
