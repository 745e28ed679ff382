#!/usr/bin/env bash
# Without a GPU and without --allow-cpu, `trainbench train` prints the PyTorch scripts'
# exact error line and exits 1; with --allow-cpu it runs on the CPU.
source "$(dirname "$0")/train_common.inc"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: this machine has a GPU"
  exit 77
fi
set +e
"$TRAINBENCH" train --model resnet18 --image-size 32 --batch-size 2 --steps-per-epoch 1 \
  >"$work/out" 2>"$work/err"
rc=$?
set -e
[ $rc = 1 ] || fail "expected exit 1, got $rc"
# On stdout, as the Python scripts print it; it is the last line there.
[ "$(tail -n 1 "$work/out")" = "[ERROR] CUDA not available and --allow-cpu not specified" ] ||
  fail "unexpected stdout: $(cat "$work/out")"
"$TRAINBENCH" train --allow-cpu --threads 2 --model resnet18 --image-size 32 --batch-size 2 \
  --steps-per-epoch 1 --warmup-steps 0 >"$work/out"
grep -q "running on the CPU (--allow-cpu)" "$work/out" || fail "no CPU fallback note"
tail -n 1 "$work/out" | grep -q '"device":"cpu"' || fail "fallback json"
echo "train_no_cuda: ok"
