# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): `trainbench train` tests (cli/train_*,
# torch/). Each starts with
#   skip_unless train_has_libtorch "trainbench built without LibTorch"

# train_has_libtorch: the binary was built with the LibTorch plugin.
train_has_libtorch() {
  ! "$TRAINBENCH" train --device cpu --steps-per-epoch 1 --model nonexistent 2>&1 |
    grep -q "needs LibTorch"
}

# Tiny-run defaults: resnet18, 32x32, batch 4, on the CPU.
TRAIN_TINY=(--device cpu --threads 2 --model resnet18 --image-size 32 --batch-size 4 --warmup-steps 1)
