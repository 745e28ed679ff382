#!/usr/bin/env bash
# Checkpoints are written as model and optimizer files (fsync'd), read back, and timed;
# evaluation passes run on the eval files after the configured epochs.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset dataset.num_files_eval=2
ckpt="$WORK/ckpt"
"$TB" run resnet50_h100 "${TINY[@]}" dataset.num_files_eval=2 reader.batch_size=16 \
  train.computation_time=0.001 train.epochs=3 workflow.checkpoint=True \
  "checkpoint.checkpoint_folder=$ckpt" model.model_size_bytes=1000000 checkpoint.fsync=True \
  checkpoint.checkpoint_after_epoch=2 checkpoint.num_checkpoints_read=1 \
  workflow.evaluation=True evaluation.eval_time=0.001 evaluation.eval_after_epoch=2 \
  reader.batch_size_eval=8 >out.txt 2>err.txt || { cat err.txt; fail "run failed"; }
# Epochs 2 and 3 checkpoint; the last is read back.
for e in 2 3; do
  d=$(ls -d "$ckpt"/global_epoch${e}_step* 2>/dev/null | head -n 1)
  [ -n "$d" ] || fail "no checkpoint for epoch $e in $ckpt"
  [ "$(stat -c %s "$d/model.pt")" = 1000000 ] || fail "model.pt size"
  [ "$(stat -c %s "$d/optimizer.pt")" = 2000000 ] || fail "optimizer.pt size"
done
[ ! -e "$(ls -d "$ckpt"/*epoch1* 2>/dev/null | head -n 1)" ] || fail "checkpoint before checkpoint_after_epoch"
dir=$(results_dir)
python3 - "$dir/summary.json" <<'PY' || fail "summary checkpoints/eval"
import json, sys
d = json.load(open(sys.argv[1]))
ops = [(c["operation"], c["epoch"]) for c in d["checkpoints"]]
assert ops == [("write", 2), ("write", 3), ("read", 3)], ops
assert all(c["bytes"] == 3000000 and c["seconds"] > 0 for c in d["checkpoints"])
evals = [p for p in d["phases"] if p["kind"] == "eval"]
assert [p["epoch"] for p in evals] == [2, 3], evals
# 2 eval files x 100 samples, batch 8: 25 steps of 8 samples.
assert all(p["steps"] == 25 and p["samples"] == 200 for p in evals), evals
assert len(d["metric"]["eval_au_percentage"]) == 2
assert d["complete"] is True
PY
grep -q "checkpoint .* read" "$dir/trainbench.log" || fail "log lacks the checkpoint read"

# Step-based checkpoints: every 5 steps of 25 per epoch, at most 3.
rm -rf "$ckpt"
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=16 train.computation_time=0 \
  train.epochs=2 workflow.checkpoint=True "checkpoint.checkpoint_folder=$ckpt" \
  checkpoint.steps_between_checkpoints=5 checkpoint.num_checkpoints_write=3 --no-barrier \
  --accelerators 1 >/dev/null 2>err.txt || { cat err.txt; fail "step checkpoints run"; }
[ "$(ls "$ckpt" | wc -l)" = 3 ] || fail "expected 3 step checkpoints, got: $(ls "$ckpt")"
[ -d "$ckpt/global_epoch1_step5" ] && [ -d "$ckpt/global_epoch1_step15" ] ||
  fail "step checkpoint names: $(ls "$ckpt")"
echo OK
