#!/usr/bin/env bash
# AU over a few steps is no verdict: with 2 steps per epoch the first is left out and the
# prefetched batches cover the rest, so AU reads 100% whatever the storage. Such a run says
# AU is not meaningful (passed null, the reason with what to change); a run with enough steps
# keeps its verdict; `datasize` says how many files a meaningful AU needs.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
# 400 samples, batch 100 x 2 accelerators: 2 steps per epoch.
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=100 train.computation_time=0.01 \
  train.epochs=2 --accelerators 2 --no-progress >few.txt 2>few.err || { cat few.err; fail "run"; }
last_line_json few.txt few.json
check "passed null over 2 steps" [ "$(json few.json 'd["trainbench_metrics"]["passed"]')" = None ]
s=$(results_dir)/summary.json
check "the reason" [ "$(json "$s" 'd["au_not_meaningful_reason"].startswith("2 steps per epoch, fewer than the 9 an AU verdict needs")')" = True ]
contains few.txt "not meaningful, 2 steps per epoch"
contains few.txt "more files (dataset.num_files_train), a smaller reader.batch_size"
# 400 samples, batch 4 x 2: 50 steps: a verdict.
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=4 train.computation_time=0.001 \
  train.epochs=1 --accelerators 2 --no-progress >many.txt 2>many.err || { cat many.err; fail "run"; }
last_line_json many.txt many.json
check "a verdict over 50 steps" [ "$(json many.json 'd["trainbench_metrics"]["passed"] in (True, False)')" = True ]
# datasize: 9 steps x batch 400 x 8 accelerators / 1251 samples per file = 24 files.
expect_exit 0 "$WORK/ds.txt" "$TB" datasize resnet50_h100 --accelerators 8 --host-memory-gib 64
contains "$WORK/ds.txt" "AU verdict       needs 9 steps per epoch: at least 24 files at batch 400 x 8 accelerator(s)"
done_ok
