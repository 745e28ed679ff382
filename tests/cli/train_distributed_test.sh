#!/usr/bin/env bash
# `trainbench train` across processes, launched as torchrun launches PyTorch jobs (RANK,
# WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT) and as mpirun does (OMPI_COMM_WORLD_*):
# two CPU processes over Gloo on loopback. The gradient check runs the LibTorch test binary
# as two ranks: averaged gradients equal one process's on the whole global batch.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
torch_tests=$(dirname "$TRAINBENCH")/tests/trainbench_torch_tests
# The tiny defaults, with the batch size per process set below.
small=(--device cpu --threads 1 --model resnet18 --image-size 32 --warmup-steps 1)

# Two ranks of the gradient test.
port=$(free_port)
for r in 0 1; do
  WORLD_SIZE=2 RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port timeout 120 "$torch_tests" \
    --gtest_filter='DataParallelTest.Averaged*' >"$WORK/grad$r" 2>&1 &
done
for r in 0 1; do
  wait -n || { cat "$WORK/grad0" "$WORK/grad1"; fail "gradient test rank failed"; }
done
grep -q "1 test.*PASSED\|PASSED.*1 test" "$WORK/grad0" || { cat "$WORK/grad0"; fail "rank 0 did not pass"; }

# Two training processes, torchrun-style: rank 0 alone prints the job's JSON line.
port=$(free_port)
for r in 0 1; do
  WORLD_SIZE=2 RANK=$r LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port timeout 300 \
    "$TRAINBENCH" train "${small[@]}" --batch-size 2 --steps-per-epoch 3 --scaling-baseline 10 \
    >"$WORK/out$r" 2>"$WORK/err$r" &
done
for r in 0 1; do
  wait -n || { cat "$WORK"/out* "$WORK"/err*; fail "a training rank failed"; }
done
grep -q "Data parallel: 2 processes (torchrun), gloo over 127.0.0.1:$port" "$WORK/out0" ||
  { cat "$WORK/out0"; fail "no data-parallel line"; }
grep -q radix_metrics "$WORK/out1" && fail "rank 1 printed a JSON line"
tail -n 1 "$WORK/out0" | $PY -c '
import json, sys
line = json.load(sys.stdin)
m, t = line["radix_metrics"], line["trainbench"]
assert m["total_images"] == 2 * 3 * 2, m          # batch per process x steps x processes
assert t["world_size"] == 2, t
assert abs(t["images_per_second_per_process"] * 2 - m["images_per_second"]) < 1e-6, t
assert abs(t["scaling_efficiency"] - t["images_per_second_per_process"] / 10) < 1e-9, t
print("ok: 2 processes,", m["total_images"], "images")'

# The same under mpirun's variables.
port=$(free_port)
for r in 0 1; do
  OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_LOCAL_RANK=$r \
    MASTER_PORT=$port timeout 300 "$TRAINBENCH" train "${small[@]}" --batch-size 2 \
    --steps-per-epoch 2 >"$WORK/mpi$r" 2>&1 &
done
for r in 0 1; do
  wait -n || { cat "$WORK"/mpi*; fail "an mpirun-style rank failed"; }
done
grep -q "Data parallel: 2 processes (mpirun)" "$WORK/mpi0" || { cat "$WORK/mpi0"; fail "mpirun line"; }

# A launched world of one forms its group as DDP scripts do (torchrun --nproc-per-node 1):
# gradients go through the same all-reduce, in persistent buckets by default, gathered into
# one buffer with --no-grad-buckets; the JSON says which.
for mode in buckets flatten; do
  port=$(free_port)
  flags=(); [ $mode = flatten ] && flags=(--no-grad-buckets)
  WORLD_SIZE=1 RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port timeout 300 "$TRAINBENCH" train \
    "${small[@]}" --batch-size 2 --steps-per-epoch 2 "${flags[@]}" >"$WORK/one_$mode" 2>&1 ||
    { cat "$WORK/one_$mode"; fail "world of one ($mode) failed"; }
  grep -q "Data parallel: 1 processes (torchrun), gloo over 127.0.0.1:$port.*gradients: $mode" \
    "$WORK/one_$mode" || { cat "$WORK/one_$mode"; fail "world of one: no data-parallel line"; }
  tail -n 1 "$WORK/one_$mode" | $PY -c '
import json, sys
t = json.load(sys.stdin)["trainbench"]
assert t["world_size"] == 1 and t["dist_backend"] == "gloo", t
assert t["gradient_sync"].startswith(sys.argv[1]), t' $mode || fail "world of one ($mode): JSON"
done
# A backend this device cannot use is refused before training.
set +e
WORLD_SIZE=1 RANK=0 MASTER_PORT=$(free_port) "$TRAINBENCH" train "${small[@]}" \
  --dist-backend nccl --steps-per-epoch 1 >"$WORK/nccl_cpu" 2>&1; rc=$?
set -e
[ $rc = 2 ] && grep -q "dist-backend nccl" "$WORK/nccl_cpu" || { cat "$WORK/nccl_cpu"; fail "nccl on cpu: rc $rc"; }

# A rank that cannot reach rank 0 fails naming the address, within its timeout.
set +e
WORLD_SIZE=2 RANK=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=1 timeout 60 "$TRAINBENCH" train \
  "${small[@]}" --steps-per-epoch 1 --dist-timeout 5 >"$WORK/lone" 2>&1; rc=$?
set -e
[ $rc = 1 ] && grep -q "127.0.0.1:1" "$WORK/lone" || { cat "$WORK/lone"; fail "lone rank: rc $rc"; }
echo "train_distributed: ok"
