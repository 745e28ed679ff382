#!/usr/bin/env bash
# `clean --yes` of a dataset on S3 that a `run` is reading (issue 46.3): the run's reader mark
# is a lease object (.trainbench.readers/<host>.<pid>.<n>, renewed while it reads, deleted at
# its end), so clean refuses (exit 1) with nothing removed, naming the reader, and the run
# reads to its end; then the mark is gone and clean removes the dataset.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"

s3_new_bucket cleanread
at_exit "s3_remove_bucket $bucket"
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
d=(resnet50_h100 dataset.num_files_train=16 dataset.num_samples_per_file=50 reader.batch_size=4
  train.computation_time=0.02 "dataset.data_folder=s3://$bucket/ds"
  storage.storage_options.s3_force_path_style=true "output.folder=$WORK/out")
expect_exit 0 datagen.out "$TB" datagen "${d[@]}" --no-progress

# marks: the reader marks under the prefix now.
marks() { s3_curl GET "/$bucket?list-type=2&prefix=ds%2F.trainbench.readers%2F" | grep -o '<Key>[^<]*</Key>' || true; }

# Two epochs of 200 steps of 20 ms: about 8 s.
"$TB" run "${d[@]}" train.epochs=2 --no-progress >run.out 2>&1 &
reader=$!
for _ in $(seq 300); do
  [ -n "$(marks)" ] && break
  kill -0 "$reader" 2>/dev/null || { cat run.out; fail "the run ended before its mark was seen"; }
  sleep 0.1
done
[ -n "$(marks)" ] || fail "no reader's mark on S3 in 30 s"
expect_exit 1 clean.out "$TB" clean "${d[@]}" --yes
contains clean.out "is being read by 1 trainbench job (pid $reader on "
contains clean.out "nothing removed"
wait "$reader" || { cat run.out; fail "the run died under clean"; }
check "the run read to its end" grep -q "run complete" run.out
check "the mark went with the run" test -z "$(marks)"
expect_exit 0 clean2.out "$TB" clean "${d[@]}" --yes
contains clean2.out "clean: removed "
echo "PASS: clean_while_read on S3 ($checks checks)"
