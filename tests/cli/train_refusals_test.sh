#!/usr/bin/env bash
# What LibTorch would refuse mid-run is refused before the first step, with exit 2 and what
# to give instead (issue 46.11): a batch of 1 (batch norm in training needs 2 or more:
# "Expected more than 1 value per channel when training"), and --calibrate of a checkpointing
# workload (no training step to time), as `sweep` refuses it. --threads beyond the cores warns.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
cd "$WORK"

expect_exit 2 batch1.out "$TB" train --allow-cpu --model resnet18 --image-size 32 --batch-size 1 --epochs 1 \
  --steps-per-epoch 2 --warmup-steps 0
contains batch1.out "--batch-size 1: batch norm (in every ResNet here) needs a batch of 2 or more"
if grep -q "Expected more than 1 value\|Step \[" batch1.out; then cat batch1.out; fail "batch 1 trained"; fi

expect_exit 2 llama.out "$TB" train --allow-cpu --calibrate llama3_8b
contains llama.out "--calibrate llama3_8b: a checkpointing workload (workflow.train false) has no training step"
if grep -q "Expected more than 1 value\|Warmup step" llama.out; then cat llama.out; fail "llama3_8b was timed"; fi

# A few more threads than cores trains, with a warning naming the host's count.
cores=$(nproc)
expect_exit 0 threads.out "$TB" train --device cpu --threads $((cores + 1)) --model resnet18 --image-size 32 \
  --batch-size 4 --warmup-steps 1 --epochs 1 --steps-per-epoch 2
contains threads.out "--threads $((cores + 1)) on $cores cores: the compute threads share cores"
echo "train_refusals: ok ($checks checks)"
