#!/usr/bin/env bash
# `trainbench train --data PATH` on real JPEGs: an ImageNet-style folder of class folders,
# the same as a tar, and a flat trainbench-style dataset; the summary reports the data and
# the share of step time spent waiting for it. Also `--calibrate WORKLOAD`, alone and beside the loader (--data).
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_unless "python_has PIL numpy" "$PY with Pillow and numpy (scripts/setup.sh installs them)"
$PY - "$WORK" <<'PYEOF'
import os, sys, tarfile
import numpy as np
from PIL import Image
root = sys.argv[1]
rng = np.random.default_rng(0)
for split in ["imagenet/train", "flat/train"]:
    for c in range(3):
        folder = os.path.join(root, split, f"n0{c}" if split.startswith("imagenet") else "")
        os.makedirs(folder, exist_ok=True)
        for i in range(4):
            w, h = rng.integers(40, 120, size=2)
            pixels = rng.integers(0, 255, size=(h, w, 3), dtype=np.uint8)
            name = f"img_{c * 4 + i}_of_12.jpg" if split.startswith("flat") else f"{i}.JPEG"
            Image.fromarray(pixels).save(os.path.join(folder, name), quality=90)
with tarfile.open(os.path.join(root, "imagenet.tar"), "w") as tar:
    tar.add(os.path.join(root, "imagenet/train"), arcname=".")
PYEOF

run() {
  "$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 4 --workers 2 --data "$@" >"$WORK/out" \
    2>"$WORK/err" || { cat "$WORK/out" "$WORK/err"; fail "train --data $1 exited"; }
  cat "$WORK/out"
}
check_json() {
  tail -n 1 "$WORK/out" | $PY -c '
import json, sys
line = json.load(sys.stdin)
m, t = line["radix_metrics"], line["trainbench"]
assert m["total_images"] == 16, m
assert t["data"] == sys.argv[1], t
assert 0 <= t["data_wait_share"] <= 1, t
print("ok:", t["data"], "data wait share", round(t["data_wait_share"], 3))
' "$1"
}

run "$WORK/imagenet"
grep -q "Data: $WORK/imagenet (12 images, 3 classes), 2 decode workers" "$WORK/out" ||
  fail "folder data line"
check_json "$WORK/imagenet"
run "$WORK/imagenet.tar" --channels-last
grep -q "(12 images, 3 classes)" "$WORK/out" || fail "tar data line"
check_json "$WORK/imagenet.tar"
run "$WORK/flat"
grep -q "(12 images, 1 classes)" "$WORK/out" || fail "flat data line"

# Real ImageNet holds PNGs and CMYK JPEGs named .JPEG: decoded by content. A file that is no
# image at all is skipped with a warning naming it and counted in the JSON, unless
# --on-bad-image fail, which stops naming it.
$PY - "$WORK" <<'PYEOF'
import os, sys
import numpy as np
from PIL import Image
root = os.path.join(sys.argv[1], "mixed/train")
rng = np.random.default_rng(1)
for c in ("n01", "n02"):
    os.makedirs(os.path.join(root, c))
    for i in range(2):
        Image.fromarray(rng.integers(0, 255, size=(60, 80, 3), dtype=np.uint8)).save(
            os.path.join(root, c, f"{i}.JPEG"), "JPEG")
pixels = rng.integers(0, 255, size=(50, 70, 3), dtype=np.uint8)
Image.fromarray(pixels).save(os.path.join(root, "n01/png_inside.JPEG"), "PNG")
Image.fromarray(pixels).convert("CMYK").save(os.path.join(root, "n02/cmyk.JPEG"), "JPEG")
with open(os.path.join(root, "n02/broken.JPEG"), "wb") as f:
    f.write(b"this is not an image")
PYEOF
run "$WORK/mixed"
grep -q "broken.JPEG" "$WORK/err" || fail "no warning naming the bad image: $(cat "$WORK/err")"
grep -q "png_inside\|cmyk" "$WORK/err" && fail "a PNG or CMYK JPEG was skipped: $(cat "$WORK/err")"
tail -n 1 "$WORK/out" | $PY -c '
import json, sys
t = json.load(sys.stdin)["trainbench"]
assert t["bad_images"] == 1, t
print("ok: bad_images", t["bad_images"])'
set +e
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 4 --workers 2 --data "$WORK/mixed" \
  --on-bad-image fail >"$WORK/out" 2>"$WORK/err"; rc=$?
set -e
[ $rc = 1 ] && grep -q "broken.JPEG" "$WORK/err" || fail "--on-bad-image fail: rc $rc $(cat "$WORK/err")"

set +e
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --data "$WORK/nothing-here" 2>"$WORK/err"; rc=$?
set -e
[ $rc = 2 ] && grep -q "nothing-here" "$WORK/err" || fail "missing data: rc $rc"

# Calibration times the workload's batch size and prints the override for `trainbench run`.
cat >"$WORK/tiny.yaml" <<'YAML'
model:
  name: resnet50
reader:
  batch_size: 2
YAML
"$TRAINBENCH" train --calibrate "$WORK/tiny.yaml" --device cpu --threads 2 --model resnet18 \
  --image-size 32 --warmup-steps 1 --steps-per-epoch 3 >"$WORK/out"
cat "$WORK/out"
grep -q "at batch 2 on" "$WORK/out" || fail "calibration batch"
# Another model and crop than the workload's are said (issue 46.23): the figure is resnet18's.
grep -q "Note: timed resnet18 at 32x32 px; tiny trains resnet50 at 224x224: this figure is resnet18's step" \
  "$WORK/out" || fail "calibration of another model: no note"
tail -n 1 "$WORK/out" | grep -Eq '^train\.computation_time=[0-9]+\.[0-9]{6}$' ||
  fail "calibration override line"
# With --data the loader reads and decodes beside the timed steps: each step's compute is its
# time less its wait for the batch, and the line says so (the fidelity study's calibration).
"$TRAINBENCH" train --calibrate "$WORK/tiny.yaml" --device cpu --threads 1 --workers 1 \
  --model resnet18 --image-size 32 --warmup-steps 1 --steps-per-epoch 3 --data "$WORK/imagenet" >"$WORK/out"
cat "$WORK/out"
grep -q "Timed with the loader reading $WORK/imagenet beside the steps (1 worker(s)): each step less its" \
  "$WORK/out" || fail "calibration with --data: the loader line"
tail -n 1 "$WORK/out" | grep -Eq '^train\.computation_time=0\.[0-9]{6}$' ||
  fail "calibration with --data: the override line"
"$PY" - "$(tail -n 1 "$WORK/out" | cut -d= -f2)" <<'PY' || fail "calibration with --data: not a step time"
import sys
assert 0 < float(sys.argv[1]) < 30, sys.argv[1]
PY
# A workload batch that does not fit in the host's memory (here a host with 0.30 GB free):
# calibration times the largest batch that fits and scales the step time, saying so; a plain
# run of that batch is refused before it starts, with the numbers.
cat >"$WORK/big.yaml" <<'YAML'
model:
  name: resnet50
reader:
  batch_size: 64
YAML
"$TRAINBENCH" train --calibrate "$WORK/big.yaml" --available-bytes 181000000 \
  --device cpu --threads 2 --model resnet18 --image-size 32 --warmup-steps 0 --steps-per-epoch 1 >"$WORK/out"
cat "$WORK/out"
grep -q "Timed at batch 38 (batch 64 does not fit in memory) and scaled by 1.68" "$WORK/out" ||
  fail "calibration did not fit the batch"
grep -q "at batch 64 on" "$WORK/out" || fail "calibration reports the workload's batch"
set +e
"$TRAINBENCH" train --available-bytes 181000000 --device cpu --model resnet18 \
  --image-size 32 --batch-size 64 --steps-per-epoch 1 >"$WORK/out" 2>&1; rc=$?
set -e
[ $rc = 2 ] && grep -q "batch-size 64 of resnet18 at 32x32 needs about .* (about 38 fits)" "$WORK/out" ||
  fail "oversized CPU batch: rc $rc $(cat "$WORK/out")"
echo "train_data: ok"
