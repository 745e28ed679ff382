#!/usr/bin/env bash
# Where results, checkpoints and saved weights go is checked before any work starts: an
# unwritable place is a usage error (exit 2) naming the flag or key, not a failure after
# the training it was meant to record. (As root, /proc is a place nothing can be created.)
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"

# train --save into a missing folder: refused before the first step.
expect_exit 2 "$WORK/out" "$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 2 --save "$WORK/missing/dir/m.pt"
contains "$WORK/out" "--save $WORK/missing/dir/m.pt: the folder $WORK/missing/dir does not exist"
if grep -q "Epoch \[" "$WORK/out"; then fail "trained before refusing --save"; fi
expect_exit 2 "$WORK/out" "$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 2 --save "$WORK"
contains "$WORK/out" "is a folder"

w=(resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=8 dataset.record_length_bytes=1000
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/d" reader.batch_size=4 train.epochs=1
   train.computation_time=0)
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" --no-progress

# run's results folder.
expect_exit 2 "$WORK/out" "$TRAINBENCH" run "${w[@]}" output.folder=/proc/trainbench-results
contains "$WORK/out" "output.folder /proc/trainbench-results: cannot create the folder"
if grep -q "run resnet50_h100:" "$WORK/out"; then fail "run started before refusing output.folder"; fi

# An unwritable checkpoint folder names checkpoint.checkpoint_folder, before the first epoch;
# the results folder its check made (two levels) is taken back, empty, by the refused run.
expect_exit 2 "$WORK/out" "$TRAINBENCH" run "${w[@]}" output.folder="$WORK/never/results" \
  workflow.checkpoint=true checkpoint.checkpoint_folder=/proc/trainbench-ckpt checkpoint.epochs_between_checkpoints=1
contains "$WORK/out" "checkpoint.checkpoint_folder /proc/trainbench-ckpt"
if grep -q "dataset.data_folder" "$WORK/out"; then fail "the error names dataset.data_folder"; fi
check "a refused run leaves no output.folder it made" [ ! -e "$WORK/never" ]
# One that was there before stays.
mkdir -p "$WORK/there"
expect_exit 2 "$WORK/out" "$TRAINBENCH" run "${w[@]}" output.folder="$WORK/there" \
  workflow.checkpoint=true checkpoint.checkpoint_folder=/proc/trainbench-ckpt checkpoint.epochs_between_checkpoints=1
check "a refused run keeps an output.folder that was there" [ -d "$WORK/there" ]

# A writable one: the run says where checkpoints go.
expect_exit 0 "$WORK/out" "$TRAINBENCH" run "${w[@]}" output.folder="$WORK/results" \
  workflow.checkpoint=true checkpoint.checkpoint_folder="$WORK/ckpt" checkpoint.epochs_between_checkpoints=1 \
  model.model_size_bytes=1000
contains "$WORK/out" "go to $WORK/ckpt"
echo "output_paths: ok"
