#!/usr/bin/env bash
# Where a CPU training step's time goes, trainbench against PyTorch eager and torch.compile,
# one after another in one run (docs/training.md, "Where a CPU step's time goes"):
# perf record of `trainbench train` (1 warm-up and 2 timed steps), then of one step of each
# PyTorch peer after its warm-up (profile_step.py, perf enabled for that step only), each
# grouped into the step's parts by perf_parts.py; the peers' torch.profiler tables are in
# OUT/eager.out and OUT/compile.out, and inductor's generated code in /tmp/torchinductor_$USER.
# Usage: bench/train_vs_pytorch/profile.sh [BATCH] (32); environment: OUT (a folder for the
#   recordings; default a new temporary one), TRAINBENCH (build/trainbench), THREADS (2),
#   PYTHON (.venv/bin/python). Needs perf and permission to record (perf_event_paranoid).
set -euo pipefail
cd "$(dirname "$0")/../.."
batch=${1:-32} threads=${THREADS:-2} python=${PYTHON:-.venv/bin/python}
bin=${TRAINBENCH:-build/trainbench}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
echo "profile: ResNet-50 fp32 batch $batch, $threads threads, $(date -u '+%F %T UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), into $out"
perf record -q -F 199 -o "$out/trainbench.data" -- "$bin" train --device cpu --threads "$threads" \
  --model resnet50 --batch-size "$batch" --steps-per-epoch 2 --warmup-steps 1 \
  --log-interval 10 >"$out/trainbench.out" 2>&1
for mode in eager compile; do
  rm -f "$out/ctl" && mkfifo "$out/ctl"
  PERF_CTL="$out/ctl" perf record -q -F 199 -D -1 --control "fifo:$out/ctl" \
    -o "$out/$mode.data" -- "$python" bench/train_vs_pytorch/profile_step.py "$mode" "$batch" \
    "$threads" >"$out/$mode.out" 2>&1
done
echo "done $(date -u '+%T UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 bench/train_vs_pytorch/perf_parts.py "$out/trainbench.data" "$out/eager.data" "$out/compile.data"
