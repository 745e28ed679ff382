#!/usr/bin/env bash
# Ctrl-C while a large checkpoint is being written stops the write within a chunk: exit 130,
# no checkpoint file under a final name that is not whole, no temporary file left.
source "$(dirname "$0")/../lib/common.sh"
w=(resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=8 dataset.record_length_bytes=1000
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/d" reader.batch_size=4 train.epochs=1
   train.computation_time=0 workflow.checkpoint=true checkpoint.epochs_between_checkpoints=1
   checkpoint.checkpoint_folder="$WORK/ckpt" model.model_size_bytes=4000000000)
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" --no-progress
"$TRAINBENCH" run "${w[@]}" output.folder="$WORK/results" --no-progress >"$WORK/run.out" 2>&1 &
pid=$!
# Wait until the checkpoint is being written (its temporary file exists), bounded.
for _ in $(seq 600); do
  [ -n "$(find "$WORK/ckpt" -name '*.tbtmp' 2>/dev/null)" ] && break
  sleep 0.05
done
[ -n "$(find "$WORK/ckpt" -name '*.tbtmp' 2>/dev/null)" ] || fail "no checkpoint write seen: $(cat "$WORK/run.out")"
kill -INT "$pid"
code=0
wait "$pid" || code=$?
check "exit 130 (got $code)" test "$code" -eq 130
check "no temporary file left" test -z "$(find "$WORK/ckpt" -name '*.tbtmp')"
# 4 GB model + 8 GB optimizer state were asked for; the interrupt stopped short of that.
written=$(find "$WORK/ckpt" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
check "stopped short ($written bytes)" test "$written" -lt 12000000000
check "no optimizer.pt under its final name" test -z "$(find "$WORK/ckpt" -name optimizer.pt)"
echo "run_checkpoint_interrupt: ok"
