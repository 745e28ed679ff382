#!/usr/bin/env bash
# trainbench train against PyTorch from Python on the same machine, same model, batch,
# precision and memory format, side by side in one run, printing one table. Runs alternate
# (trainbench, then each peer) and each side's best of REPEAT runs is kept, so load from
# other processes on a shared machine hits all sides alike.
# Peers: PyTorch 2.x eager and torch.compile of the same model on a synthetic batch, both in
# the row's precision (bf16: autocast), so one run prints trainbench's ratio to each; with
# DATA set, also real JPEGs: trainbench's loader against torchvision's ImageFolder +
# DataLoader with the same transforms and worker count.
#
# Usage: bench/train_vs_pytorch/run.sh [cpu|cuda]
# Environment: BATCHES ("8 32" on cpu; "128 256" on cuda), THREADS (2: both sides' intra-op
#   threads), STEPS (3 cpu / 50 cuda), WARMUP (2 / 10; torch.compile compiles in the first),
#   REPEAT (1), MODEL (resnet50), CONFIGS (space-separated precision[:cl]; "fp32 bf16" on
#   cpu), PEERS ("eager compile"), DATA (a folder of class folders of JPEGs for the real-data
#   row), DATA_CONFIG (bf16:cl), WORKERS (8), PYTHON (the PyTorch: on cpu .venv/bin/python,
#   PyPI's torch as requirements.txt pins it (scripts/setup_python.sh); on cuda python3, the
#   GPU host's own), BASELINE (another trainbench binary, e.g. a copy of an older build with
#   its plugin beside it: run alternately with the others as one more column, so a change is
#   measured before and after in one run).
set -euo pipefail
cd "$(dirname "$0")/../.."
device=${1:-cpu}
if [ "$device" = cpu ]; then
  batches=${BATCHES:-"8 32"} steps=${STEPS:-3} warmup=${WARMUP:-2} repeat=${REPEAT:-1}
  configs=${CONFIGS:-"fp32 bf16"} python=${PYTHON:-.venv/bin/python}
else
  batches=${BATCHES:-"128 256"} steps=${STEPS:-50} warmup=${WARMUP:-10} repeat=${REPEAT:-1}
  configs=${CONFIGS:-"fp32:cl tf32:cl bf16:cl fp16:cl"} python=${PYTHON:-python3}
fi
peers=${PEERS:-"eager compile"}
threads=${THREADS:-2} model=${MODEL:-resnet50} workers=${WORKERS:-8}
"$python" -c 'import torch, torchvision' 2>/dev/null || {
  echo "train_vs_pytorch: $python has no torch/torchvision (bash scripts/setup_python.sh, or PYTHON=...)" >&2
  exit 2
}
bin=${TRAINBENCH:-build/trainbench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

field() { tail -n 1 "$1" | "$python" -c "import json,sys; l=json.load(sys.stdin); print(l['$2']['$3'])"; }
best() { printf '%s\n' "$@" | sort -g | tail -n 1; }
ratio() { "$python" -c "print(f'{$1 / $2:.2f}x')"; }
# Images/s as the table prints them: whole numbers on a GPU, 3 digits below 100 (a CPU's 0.85).
rate() { awk -v v="$1" 'BEGIN { if (v >= 100) printf "%.0f", v; else printf "%.3g", v }'; }

echo "train_vs_pytorch: $model, $steps timed steps after $warmup warm-up, device $device, best of $repeat"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "threads: $threads on both sides (trainbench --threads, torch.set_num_threads)"
[ "$device" = cuda ] && echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo unknown)"
echo "peer: $("$python" -c 'import torch, torchvision; print("PyTorch", torch.__version__, "torchvision", torchvision.__version__)')"
header="| config | batch | trainbench img/s"
[ -n "${BASELINE:-}" ] && header+=" | baseline img/s | vs baseline"
for p in $peers; do header+=" | $p img/s | vs $p"; done
echo; echo "$header |"
echo "$header |" | sed 's/[^|]/-/g'

# One row: trainbench, then each peer, REPEAT times; extra arguments go to both sides.
row() {
  local label=$1 batch=$2 precision=$3 cl=$4; shift 4
  local flags=(--model "$model" --batch-size "$batch" --steps-per-epoch "$steps"
               --warmup-steps "$warmup" --precision "$precision" --device "$device"
               --threads "$threads" --log-interval 10 "$@")
  [ "$cl" = 1 ] && flags+=(--channels-last)
  local ours=() base=() line
  declare -A theirs=()
  for _ in $(seq "$repeat"); do
    "$bin" train "${flags[@]}" >"$out/tb" 2>"$out/tb.err" || { cat "$out/tb.err"; exit 1; }
    ours+=("$(field "$out/tb" radix_metrics images_per_second)")
    if [ -n "${BASELINE:-}" ]; then
      "$BASELINE" train "${flags[@]}" >"$out/base" 2>"$out/base.err" || { cat "$out/base.err"; exit 1; }
      base+=("$(field "$out/base" radix_metrics images_per_second)")
    fi
    for p in $peers; do
      local extra=(); [ "$p" = compile ] && extra=(--compile)
      "$python" bench/train_vs_pytorch/pytorch_train.py "${flags[@]}" "${extra[@]}" >"$out/py" \
        2>"$out/py.err" || { tail -n 20 "$out/py.err"; exit 1; }
      theirs[$p]+=" $(field "$out/py" radix_metrics images_per_second)"
    done
  done
  local a; a=$(best "${ours[@]}")
  line=$(printf '| %s | %s | %s' "$label" "$batch" "$(rate "$a")")
  if [ -n "${BASELINE:-}" ]; then
    local c; c=$(best "${base[@]}")
    line+=$(printf ' | %s | %s' "$(rate "$c")" "$(ratio "$a" "$c")")
  fi
  for p in $peers; do
    # shellcheck disable=SC2086
    local b; b=$(best ${theirs[$p]})
    line+=$(printf ' | %s | %s' "$(rate "$b")" "$(ratio "$a" "$b")")
  done
  echo "$line |"
  echo "  runs: trainbench ${ours[*]}; ${BASELINE:+baseline ${base[*]}; }$(for p in $peers; do printf '%s%s; ' "$p" "${theirs[$p]}"; done)" >&2
}

for batch in $batches; do
  for config in $configs; do
    precision=${config%%:*} cl=0
    [ "$config" != "$precision" ] && cl=1
    label=$precision; [ "$cl" = 1 ] && label="$precision channels-last"
    row "$label" "$batch" "$precision" "$cl"
  done
done

if [ -n "${DATA:-}" ]; then
  config=${DATA_CONFIG:-bf16:cl}
  precision=${config%%:*} cl=0
  [ "$config" != "$precision" ] && cl=1
  batch=${batches##* }
  peers=eager row "real JPEGs $config ($workers workers)" "$batch" "$precision" "$cl" \
    --data "$DATA" --workers "$workers"
  echo "real-JPEG data wait share: trainbench $(field "$out/tb" trainbench data_wait_share), torchvision $(field "$out/py" trainbench data_wait_share)"
fi
