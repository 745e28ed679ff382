#!/usr/bin/env bash
# `trainbench train` on synthetic data: the loss falls on the fixed batch, the final stdout
# line is the JSON the PyTorch scripts print (exactly seven radix_metrics fields, images =
# batch x steps x epochs), progress lines look like theirs, and flag errors exit 2.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"

"$TRAINBENCH" train "${TRAIN_TINY[@]}" --epochs 2 --steps-per-epoch 5 --log-interval 1 --lr 0.01 \
  >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/out" "$WORK/err"; fail "train exited $?"; }
cat "$WORK/out"
grep -q "^Using device: cpu (" "$WORK/out" || fail "no device line"
grep -q "^Model: resnet18 (11689512 parameters)" "$WORK/out" || fail "no model line"
[ "$(grep -c '^Epoch \[[12]/2\] Step \[[0-9]*/5\] Loss: [0-9.]* Images/sec: [0-9.]*$' "$WORK/out")" = 10 ] ||
  fail "expected 10 progress lines"
tail -n 1 "$WORK/out" >"$WORK/json"
$PY - "$WORK/out" "$WORK/json" <<'PYEOF'
import json, re, sys
out, line = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
m = line["radix_metrics"]
assert list(m) == ["images_per_second", "total_images", "elapsed_seconds", "lr", "batch_size",
                   "epochs", "steps_per_epoch"], list(m)
assert m["total_images"] == 4 * 5 * 2, m
assert (m["lr"], m["batch_size"], m["epochs"], m["steps_per_epoch"]) == (0.01, 4, 2, 5), m
assert abs(m["images_per_second"] - m["total_images"] / m["elapsed_seconds"]) < 1e-6 * m["images_per_second"], m
t = line["trainbench"]
for key in ["precision", "channels_last", "device", "model", "data", "step_time_p50_ms",
            "step_time_p99_ms", "data_wait_share"]:
    assert key in t, key
assert (t["precision"], t["channels_last"], t["device"], t["model"], t["data"]) == \
    ("fp32", False, "cpu", "resnet18", "synthetic"), t
assert 0 < t["step_time_p50_ms"] <= t["step_time_p99_ms"], t
assert 0 <= t["data_wait_share"] < 0.05, t  # synthetic batches are already there
# Steps take at most the elapsed time in total: at least half of the 10 take >= p50.
assert t["step_time_p50_ms"] * 5 <= m["elapsed_seconds"] * 1000 * 1.01, (t, m)
losses = [float(x) for x in re.findall(r"Loss: ([0-9.]+) Images", out)]
assert len(losses) == 10, losses
assert losses[-1] < 0.5 * losses[0], f"loss did not fall on the fixed batch: {losses}"
print("ok: json fields and arithmetic, loss", losses[0], "->", losses[-1])
PYEOF

# bf16 autocast with channels-last runs too and says so.
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 2 --precision bf16 --channels-last >"$WORK/out"
tail -n 1 "$WORK/out" | grep -q '"precision":"bf16","channels_last":true' || fail "bf16 json"

# The live status block: none in a log (stderr above went to a file), drawn on a terminal
# (script(1)) under the progress lines, which keep their shape; none with --no-progress.
if grep -q "train: epoch" "$WORK/err"; then fail "a status block in a log"; fi
if command -v script >/dev/null; then
  tiny="${TRAIN_TINY[*]} --epochs 2 --steps-per-epoch 30 --log-interval 15"
  script -qec "$TRAINBENCH train $tiny" "$WORK/tty.log" >/dev/null || fail "train on a terminal"
  contains "$WORK/tty.log" "train: epoch 2/2, "
  contains "$WORK/tty.log" "images/s, data wait "
  [ "$(grep -ac 'Epoch \[[12]/2\] Step \[[0-9]*/30\] Loss: [0-9.]* Images/sec: [0-9.]*' "$WORK/tty.log")" = 4 ] ||
    fail "progress lines on a terminal"
  grep -a '"radix_metrics"' "$WORK/tty.log" | grep -qv "train: epoch" || fail "the JSON line is not alone"
  script -qec "$TRAINBENCH train $tiny --no-progress" "$WORK/tty2.log" >/dev/null || fail "--no-progress"
  if grep -aq "train: epoch" "$WORK/tty2.log"; then fail "a status block with --no-progress"; fi
  contains "$WORK/tty2.log" "Epoch [2/2] Step [30/30]"
fi

# Usage errors exit 2 and name the flag.
set +e
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --precision fp17 2>"$WORK/err"; rc=$?
[ $rc = 2 ] && grep -q -- "--precision fp17" "$WORK/err" || fail "bad precision: rc $rc"
"$TRAINBENCH" train --device cpu --model resnet99 2>"$WORK/err"; rc=$?
[ $rc = 2 ] && grep -q "resnet50" "$WORK/err" || fail "bad model: rc $rc"
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --precision fp16 2>"$WORK/err"; rc=$?
[ $rc = 2 ] && grep -q "CUDA" "$WORK/err" || fail "fp16 on cpu: rc $rc"
set -e
echo "train_synthetic: ok"
