#!/usr/bin/env bash
# trainbench train against PyTorch from Python on the same machine, same model, batch,
# precision and memory format, side by side in one run. Runs alternate (trainbench, PyTorch,
# trainbench, ...) and each side's best of REPEAT runs is kept, so load from other processes
# on a shared machine hits both sides alike.
#
# Usage: bench/train_vs_pytorch/run.sh [cpu|cuda]
# Environment: BATCH (8 on cpu, 128 on cuda), THREADS (2), STEPS (5 cpu / 50 cuda),
#   WARMUP (2 / 10), REPEAT (2), MODEL (resnet50), CONFIGS (space-separated precision[:cl]),
#   PYTHON (/usr/bin/python3: Debian's python3-torch; on a GPU machine, its own PyTorch).
set -euo pipefail
cd "$(dirname "$0")/../.."
device=${1:-cpu}
if [ "$device" = cpu ]; then
  batch=${BATCH:-8} steps=${STEPS:-5} warmup=${WARMUP:-2}
  configs=${CONFIGS:-"fp32 fp32:cl bf16 bf16:cl"}
else
  batch=${BATCH:-128} steps=${STEPS:-50} warmup=${WARMUP:-10}
  configs=${CONFIGS:-"fp32 tf32 tf32:cl bf16:cl fp16:cl"}
fi
threads=${THREADS:-2} repeat=${REPEAT:-2} model=${MODEL:-resnet50}
python=${PYTHON:-/usr/bin/python3}
bin=${TRAINBENCH:-build/trainbench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ips() { tail -n 1 "$1" | "$python" -c 'import json,sys; print(json.load(sys.stdin)["radix_metrics"]["images_per_second"])'; }
best() { printf '%s\n' "$@" | sort -g | tail -n 1; }

echo "train_vs_pytorch: $model, batch $batch, $steps timed steps after $warmup warm-up, device $device, $threads threads"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "peer: $("$python" -c 'import torch, torchvision; print("PyTorch", torch.__version__, "torchvision", torchvision.__version__)')"
printf '\n| %-20s | %14s | %14s | %6s |\n' "config" "trainbench img/s" "PyTorch img/s" "ratio"
printf '|%s|%s|%s|%s|\n' "----------------------" "------------------" "-----------------" "--------"
for config in $configs; do
  precision=${config%%:*}
  flags=(--model "$model" --batch-size "$batch" --steps-per-epoch "$steps" --warmup-steps "$warmup"
         --precision "$precision" --device "$device" --threads "$threads")
  [ "$config" != "$precision" ] && flags+=(--channels-last)
  ours=() theirs=()
  for r in $(seq "$repeat"); do
    "$bin" train "${flags[@]}" --log-interval 1000 >"$out/tb" 2>"$out/tb.err" || { cat "$out/tb.err"; exit 1; }
    ours+=("$(ips "$out/tb")")
    "$python" bench/train_vs_pytorch/pytorch_train.py "${flags[@]}" >"$out/py" 2>"$out/py.err" || { cat "$out/py.err"; exit 1; }
    theirs+=("$(ips "$out/py")")
  done
  a=$(best "${ours[@]}") b=$(best "${theirs[@]}")
  label=$precision; [ "$config" != "$precision" ] && label="$precision channels-last"
  printf '| %-20s | %16.2f | %15.2f | %5.2fx |\n' "$label" "$a" "$b" "$("$python" -c "print($a / $b)")"
  echo "  runs: trainbench ${ours[*]} / pytorch ${theirs[*]}" >&2
done
