#!/usr/bin/env bash
# Data parallelism on a GPU (the GPU host; skipped without one): the gradient test binary as
# two ranks on one GPU over Gloo (CUDA tensors reduced through the host) and as a world of one
# over NCCL, both with the per-step flatten and with persistent buckets; then `train` as a
# world of one over NCCL (buckets overlapped with backward where LibTorch has the hooks) and
# as two ranks sharing the GPU over Gloo, rank 0 alone printing the job's line.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
torch_tests=$(dirname "$TRAINBENCH")/tests/trainbench_torch_tests
skip_unless_gpu "data parallelism on CUDA needs a GPU (run on the GPU host)"
filter=--gtest_filter='DataParallelTest.Averaged*'


WORLD_SIZE=1 RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$(free_port) TRAINBENCH_TEST_DEVICE=cuda:0 \
  TRAINBENCH_TEST_BACKEND=nccl timeout 120 "$torch_tests" "$filter" >"$WORK/nccl" 2>&1 ||
  { cat "$WORK/nccl"; fail "NCCL world of one: gradient test failed"; }
grep -q "PASSED.*1 test" "$WORK/nccl" || { cat "$WORK/nccl"; fail "NCCL: did not pass"; }
echo "ok: NCCL world of one (init, all-reduce, buckets)"

cuda=(--device cuda --model resnet50 --batch-size 64 --precision bf16 --channels-last
      --warmup-steps 3 --steps-per-epoch 10 --log-interval 5)
port=$(free_port)
WORLD_SIZE=1 RANK=0 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port timeout 300 \
  "$TRAINBENCH" train "${cuda[@]}" >"$WORK/train_nccl" 2>&1 ||
  { cat "$WORK/train_nccl"; fail "train over NCCL failed"; }
grep -q "Data parallel: 1 processes (torchrun), nccl" "$WORK/train_nccl" ||
  { cat "$WORK/train_nccl"; fail "train: no NCCL line"; }
tail -n 1 "$WORK/train_nccl" | $PY -c '
import json, math, sys
line = json.load(sys.stdin)
m, t = line["radix_metrics"], line["trainbench"]
assert t["dist_backend"] == "nccl" and t["gradient_sync"].startswith("buckets"), t
assert m["total_images"] == 64 * 10 and m["images_per_second"] > 0, m
print("ok: train over NCCL,", round(m["images_per_second"]), "img/s,", t["gradient_sync"])' ||
  fail "train over NCCL: JSON"

# Two ranks on the one GPU need Gloo (NCCL refuses two ranks on one device). PyTorch's wheels
# ship no gloo headers, so a build against them has no Gloo: say so, loudly, and stop here.
WORLD_SIZE=1 RANK=0 MASTER_PORT=$(free_port) "$TRAINBENCH" train --device cuda --model resnet18 \
  --image-size 32 --batch-size 2 --steps-per-epoch 1 --warmup-steps 0 --dist-backend gloo \
  >"$WORK/gloo_probe" 2>&1 || true
if grep -q "this build has no Gloo" "$WORK/gloo_probe"; then
  echo "cuda_data_parallel: NCCL ok; NOT RUN: Gloo on CUDA (this build has no Gloo)"
  exit 0
fi
port=$(free_port)
for r in 0 1; do
  WORLD_SIZE=2 RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port TRAINBENCH_TEST_DEVICE=cuda:0 \
    TRAINBENCH_TEST_BACKEND=gloo timeout 120 "$torch_tests" "$filter" >"$WORK/gloo$r" 2>&1 &
done
for r in 0 1; do wait -n || { cat "$WORK"/gloo*; fail "Gloo-on-CUDA gradient rank failed"; }; done
grep -q "PASSED.*1 test" "$WORK/gloo0" || { cat "$WORK/gloo0"; fail "Gloo on CUDA: rank 0 did not pass"; }
echo "ok: 2 ranks on one GPU over Gloo, averaged gradients equal one process's"
port=$(free_port)
for r in 0 1; do
  WORLD_SIZE=2 RANK=$r LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port timeout 300 \
    "$TRAINBENCH" train "${cuda[@]}" --batch-size 32 --dist-backend gloo >"$WORK/train_gloo$r" 2>&1 &
done
for r in 0 1; do wait -n || { cat "$WORK"/train_gloo*; fail "a Gloo-on-CUDA training rank failed"; }; done
tail -n 1 "$WORK/train_gloo0" | $PY -c '
import json, sys
line = json.load(sys.stdin)
m, t = line["radix_metrics"], line["trainbench"]
assert t["world_size"] == 2 and t["dist_backend"] == "gloo", t
assert m["total_images"] == 32 * 10 * 2, m
print("ok: 2 ranks on one GPU over Gloo,", round(m["images_per_second"]), "img/s")' ||
  fail "Gloo-on-CUDA train: JSON"
grep -q radix_metrics "$WORK/train_gloo1" && fail "rank 1 printed a JSON line"
echo "cuda_data_parallel: ok"
