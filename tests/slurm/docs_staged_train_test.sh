#!/usr/bin/env bash
# docs/slurm/staged_train.sbatch with this suite's paths: 2 nodes x 2 tasks (here a task per
# CPU "GPU"). One `stage` per node extracts a tar of JPEGs from the shared folder into the
# node's own scratch (the cluster's TmpFS, a different folder on each node), then 4 `train`
# processes train data parallel on the staged copies, over Gloo on the CPU.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_unless "python_has PIL numpy" "$PY with Pillow and numpy (scripts/setup.sh installs them)"
slurm_use_cluster

# A tiny ImageNet-style tar (class folders of JPEGs) on the shared file system.
$PY - "$WORK" <<'PYEOF'
import os, sys, tarfile
import numpy as np
from PIL import Image
root = sys.argv[1]
rng = np.random.default_rng(0)
for c in range(2):
    folder = os.path.join(root, "imagenet", f"n0{c}")
    os.makedirs(folder)
    for i in range(6):
        pixels = rng.integers(0, 255, size=(48, 48, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(os.path.join(folder, f"{i}.JPEG"), quality=90)
with tarfile.open(os.path.join(root, "imagenet.tar"), "w") as tar:
    tar.add(os.path.join(root, "imagenet"), arcname=".")
PYEOF

# Node-local scratch: each slurmd has its own folder mounted on the cluster's TmpFS.
scratch=$(timeout 10 scontrol show config | sed -n 's/^TmpFS *= *//p')/staged-$$
at_exit "timeout 30 srun -N2 --ntasks-per-node=1 --mpi=none rm -rf $scratch >/dev/null 2>&1"
job=$(TRAINBENCH=$TB SOURCE=$WORK/imagenet.tar SCRATCH=$scratch RESULTS=$WORK/out \
  STAGE_ARGS="--extract" \
  TRAIN_ARGS="--device cpu --allow-cpu --threads 1 --workers 1 --model resnet18 --image-size 32 --warmup-steps 1 --batch-size 2 --steps-per-epoch 2" \
  slurm_sbatch --nodes=2 --ntasks-per-node=2 --output="$WORK/job.out" --error="$WORK/job.err" \
  "$SRC/docs/slurm/staged_train.sbatch")
state=$(slurm_wait_job "$job" 200)
[ "$state" = COMPLETED ] || { cat job.out job.err; fail "job $job ended $state"; }

for node in hosta hostb; do
  s=$(ls "$WORK"/out/$node/stage-*/summary.json 2>/dev/null | head -n 1)
  check "$node staged once" test -n "$s" -a "$(ls -d "$WORK"/out/$node/stage-* | wc -l)" = 1
  check "$node's stage is complete" test "$(json "$s" 'd["complete"]')" = True
done
slurm_srun 30 -N2 --ntasks-per-node=1 --mpi=none bash -c \
  "echo \$(hostname) \$(find $scratch -name '*.JPEG' | wc -l)" | sort >staged.txt
check "12 images in each node's scratch: $(cat staged.txt)" \
  test "$(tr '\n' ' ' <staged.txt)" = "hosta 12 hostb 12 "
check "the scratch is the nodes' own, not the shared folder's" test ! -e "$scratch"
contains job.out "Data parallel: 4 processes (slurm), gloo over hosta:"
tail -n 1 job.out | $PY -c '
import json, sys
line = json.load(sys.stdin)
m, t = line["radix_metrics"], line["trainbench"]
assert t["world_size"] == 4, t
assert m["total_images"] == 2 * 2 * 4, m     # batch per process x steps x processes
print("ok: 4 processes,", m["total_images"], "images from", t.get("data"))' ||
  { cat job.out; fail "rank 0's JSON line"; }
done_ok
