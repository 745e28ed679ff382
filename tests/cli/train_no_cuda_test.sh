#!/usr/bin/env bash
# Without a GPU and without --allow-cpu, `trainbench train` prints the PyTorch scripts'
# exact error line and exits 1; with --allow-cpu it runs on the CPU.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_if_gpu "checks the no-GPU path: this machine has a GPU"
set +e
"$TRAINBENCH" train --model resnet18 --image-size 32 --batch-size 2 --steps-per-epoch 1 \
  >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
[ $rc = 1 ] || fail "expected exit 1, got $rc"
# On stdout, as the Python scripts print it; it is the last line there.
[ "$(tail -n 1 "$WORK/out")" = "[ERROR] CUDA not available and --allow-cpu not specified" ] ||
  fail "unexpected stdout: $(cat "$WORK/out")"
"$TRAINBENCH" train --allow-cpu --threads 2 --model resnet18 --image-size 32 --batch-size 2 \
  --steps-per-epoch 1 --warmup-steps 0 >"$WORK/out"
grep -q "running on the CPU (--allow-cpu)" "$WORK/out" || fail "no CPU fallback note"
tail -n 1 "$WORK/out" | grep -q '"device":"cpu"' || fail "fallback json"
echo "train_no_cuda: ok"
