#!/usr/bin/env bash
# Ctrl-C during `trainbench train` stops it with exit 130, as in `run` and `datagen`.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 100000 --log-interval 1 >"$WORK/out" 2>&1 &
pid=$!
for _ in $(seq 600); do
  grep -q "Step \[1/" "$WORK/out" && break
  sleep 0.1
done
grep -q "Step \[1/" "$WORK/out" || fail "training did not start: $(cat "$WORK/out")"
kill -INT "$pid"
code=0
wait "$pid" || code=$?
check "interrupted train exits 130 (got $code)" test "$code" -eq 130
contains "$WORK/out" "interrupted"
echo "train_interrupt: ok"
