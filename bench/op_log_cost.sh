#!/usr/bin/env bash
# What --op-log costs: the same run (the null engine: reads complete at once, so the run is
# all trainbench's own work and as many operations per second as it can do) with and without
# an op-log, alternated, best of RUNS. Prints operations/s and CPU seconds per million
# operations for each, and the op-log's extra CPU as a share of the run's.
# Usage: bench/op_log_cost.sh [RUNS]   (TRAINBENCH=... for another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-$PWD/build/trainbench}
runs=${1:-3}
work=$(mktemp -d /tmp/op-log-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
w=(resnet50_h100 dataset.num_files_train=2000 dataset.num_samples_per_file=1 dataset.record_length_bytes=4096
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$work/d" reader.batch_size=8 train.epochs=50
   train.computation_time=0 output.folder="$work/out")
"$TB" datagen "${w[@]}" --no-progress >/dev/null 2>&1
one() {  # one LABEL [ARGS]: "LABEL ops/s cpu_s_per_million"
  local label=$1
  shift
  rm -rf "$work/out"
  "$TB" run "${w[@]}" --io-engine null --no-progress --interval 0 "$@" >/dev/null 2>&1
  /usr/bin/python3 - "$label" "$(ls -d "$work"/out/*/)summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
ops = s["read_latency_ms"]["count"]
print(sys.argv[1], round(ops / s["run_seconds"]), round(s["cpu_seconds"] / ops * 1e6, 3))
PY
}
for _ in $(seq "$runs"); do
  one plain
  one op-log --op-log "$work/ops.tsv.zst"
  one op-log-tsv --op-log "$work/ops.tsv"
done | sort | /usr/bin/python3 -c '
import sys
best = {}
for line in sys.stdin:
    label, rate, cpu = line.split()
    best.setdefault(label, []).append((float(cpu), float(rate)))
for label in sorted(best):
    cpu, rate = min(best[label])
    print(f"{label:7} {rate:12,.0f} ops/s  {cpu:8.3f} CPU s per million ops")
extra = min(best["op-log"])[0] - min(best["plain"])[0]
print(f"op-log: +{extra:.3f} CPU s per million ops; at 100k ops/s: {extra * 0.1 * 100:.2f}% of one core")
'
