#!/usr/bin/env bash
# Without a GPU and without --allow-cpu, `trainbench train` prints the PyTorch scripts'
# exact error line and exits 1, with an error line naming the next step (also before a
# staged training fetches anything); with --allow-cpu it runs on the CPU.
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
grep -q "trainbench: error: no CUDA device here: .* add --allow-cpu" "$WORK/err" ||
  fail "no error line naming the next step: $(cat "$WORK/err")"
# trainbench's own line comes first, then PyTorch's (issue 46.21), on a terminal as in a log.
"$TRAINBENCH" train --model resnet18 --image-size 32 --batch-size 2 --steps-per-epoch 1 \
  >"$WORK/both" 2>&1 || true
grep -n "no CUDA device here\|CUDA not available" "$WORK/both" | head -n 1 | grep -q "no CUDA device here" ||
  fail "PyTorch's line before trainbench's: $(cat "$WORK/both")"
# A staged training checks the device before it fetches: nothing listens on this port, so a
# stage that ran first would fail on the connection instead (it fetched a whole dataset, then
# found no GPU).
set +e
"$TRAINBENCH" train --model resnet18 --data http://127.0.0.1:9/imagenet.tar --stage-to "$WORK/staged" \
  --output "$WORK/results" >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
[ $rc = 1 ] || fail "staged, no GPU: expected exit 1, got $rc: $(cat "$WORK/out" "$WORK/err")"
[ "$(tail -n 1 "$WORK/out")" = "[ERROR] CUDA not available and --allow-cpu not specified" ] ||
  fail "staged, no GPU: stdout $(cat "$WORK/out") stderr $(cat "$WORK/err")"
if grep -qi "connect\|refused\|fetch" "$WORK/err"; then fail "staged, no GPU: it tried to fetch: $(cat "$WORK/err")"; fi
[ -z "$(find "$WORK/staged" -type f 2>/dev/null)" ] || fail "staged, no GPU: files were staged"
"$TRAINBENCH" train --allow-cpu --threads 2 --model resnet18 --image-size 32 --batch-size 2 \
  --steps-per-epoch 1 --warmup-steps 0 >"$WORK/out"
grep -q "running on the CPU (--allow-cpu)" "$WORK/out" || fail "no CPU fallback note"
tail -n 1 "$WORK/out" | grep -q '"device":"cpu"' || fail "fallback json"
echo "train_no_cuda: ok"
