#!/usr/bin/env bash
# DLIO's reader.preprocess_time (+ preprocess_time_stdev): a reader worker holds each sample
# that long after its bytes arrive (JPEG decode, augmentation), so it bounds how fast samples
# load: 200 small samples, 2 read threads, 20 ms each (normal, stdev 2 ms) take at least
# 200 x 0.02 / 2 = 2 s, i.e. at most 100 samples/s, and the 1 ms steps wait for data. Without
# it the same run reads from the page cache far faster. The keys are kept in config.yaml.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
args=(resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=100
  dataset.record_length_bytes=4096 dataset.record_length_bytes_stdev=0
  "dataset.data_folder=$WORK/data" "output.folder=$WORK/out" reader.batch_size=10
  reader.read_threads=2 reader.prefetch_size=2 train.computation_time=0.001 train.epochs=1)
expect_exit 0 datagen.out "$TB" datagen "${args[@]}" --no-progress

expect_exit 0 slow.out "$TB" run "${args[@]}" reader.preprocess_time=0.02 \
  reader.preprocess_time_stdev=0.002 --accelerators 1 --no-progress
last_line_json slow.out slow.json
slow=$(json slow.json 'd["trainbench_metrics"]["samples_per_second"]')
check "preprocessing bounds the rate: $slow samples/s <= 2 / 0.02 (+2% for the clock)" \
  "$PY" -c "assert $slow <= 102, $slow"
check "the steps wait for data: AU $(json slow.json 'd["trainbench_metrics"]["au_percentage"]') < 20%" \
  "$PY" -c "assert $(json slow.json 'd["trainbench_metrics"]["au_percentage"]') < 20"
config=$(json slow.json 'd["trainbench"]["results"]')/config.yaml
contains "$config" "preprocess_time: 0.02"
contains "$config" "preprocess_time_stdev: 0.002"

expect_exit 0 fast.out "$TB" run "${args[@]}" --accelerators 1 --no-progress
last_line_json fast.out fast.json
fast=$(json fast.json 'd["trainbench_metrics"]["samples_per_second"]')
check "without preprocessing the same run is over twice as fast ($fast against $slow)" \
  "$PY" -c "assert $fast > 2 * $slow, ($fast, $slow)"
done_ok
