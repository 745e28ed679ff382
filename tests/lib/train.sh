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

# train_make_jpegs DIR: an ImageFolder of 2 classes (DIR/n00, DIR/n01) of 6 random 48x56
# JPEGs each (seeded: the same bytes every time), for tests that train on real images.
train_make_jpegs() {
  "$PY" - "$1" <<'PYEOF'
import os, sys
import numpy as np
from PIL import Image
rng = np.random.default_rng(1)
for c in range(2):
    os.makedirs(os.path.join(sys.argv[1], f"n0{c}"), exist_ok=True)
    for i in range(6):
        Image.fromarray(rng.integers(0, 255, size=(48, 56, 3), dtype=np.uint8)).save(
            os.path.join(sys.argv[1], f"n0{c}", f"{i}.JPEG"), quality=90)
PYEOF
}
