#!/usr/bin/env bash
# `trainbench train` under srun, data parallel over 2 nodes x 1 task on the CPU (Gloo): each
# task takes its rank, the world size and its local rank from srun's SLURM_PROCID,
# SLURM_STEP_NUM_TASKS and SLURM_LOCALID, and rank 0's address from the first node of the
# step (MASTER_ADDR unset: hosta, resolved on the nodes). Rank 0 alone prints the job's JSON
# line, counting both ranks' images.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless train_has_libtorch "trainbench built without LibTorch"
slurm_use_cluster
# TRAIN_TINY (tests/lib/train.sh) with one thread per process and the batch size set below.
small=(--device cpu --threads 1 --model resnet18 --image-size 32 --warmup-steps 1)

env -u MASTER_ADDR -u MASTER_PORT timeout -k 5 300 srun -N2 --ntasks-per-node=1 --mpi=none \
  --output="$WORK/out.%t" --error="$WORK/err.%t" \
  bash -c 'echo "task $SLURM_PROCID of $SLURM_STEP_NUM_TASKS on $(hostname)" >&2; exec "$@"' _ \
  "$TB" train "${small[@]}" --allow-cpu --batch-size 2 --steps-per-epoch 3 ||
  { cat out.* err.*; fail "train under srun"; }
contains out.0 "Data parallel: 2 processes (slurm), gloo over hosta:29500"
check "rank 1 printed no JSON line" bash -c "! grep -q radix_metrics out.1"
tail -n 1 out.0 | $PY -c '
import json, sys
line = json.load(sys.stdin)
m, t = line["radix_metrics"], line["trainbench"]
assert m["total_images"] == 2 * 3 * 2, m     # batch per process x steps x processes
assert t["world_size"] == 2, t
assert t["dist_backend"] == "gloo", t
print("ok: 2 processes,", m["total_images"], "images")' || { cat out.0; fail "rank 0's JSON line"; }
contains err.0 "task 0 of 2 on hosta"
contains err.1 "task 1 of 2 on hostb"
done_ok
