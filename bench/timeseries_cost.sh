#!/usr/bin/env bash
# What the always-on time series costs: `run --io-engine null` (no storage is read, so
# trainbench's own CPU per sample is all there is to see) with --interval 0 (no time series)
# and --interval 1 (the default), alternating rounds on the same cached files, medians.
# The goal (the report issue): under 1% of samples/s and of CPU per sample. "sampler CPU" is
# the sampler thread's own CPU time as a share of the run's (timeseries_cpu_share in
# summary.json): the cost measured where it is spent, which the box's noise cannot hide.
# Usage: bench/timeseries_cost.sh [DATA_DIR]  (env: FILES=24 EPOCHS=2000 ACCELERATORS=8 ROUNDS=7
# INTERVALS="0 1", RUN_ARGS="reader.batch_size=4" for more steps per sample)
# A null-engine epoch of the 24 files takes milliseconds: thousands of epochs make a run of
# seconds, long enough for the sampler to take its rows.
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
data=${1:-/tmp/trainbench-bench/resnet50}
files=${FILES:-24}
epochs=${EPOCHS:-2000}
accelerators=${ACCELERATORS:-8}
rounds=${ROUNDS:-7}
intervals=(${INTERVALS:-0 1})
extra=(${RUN_ARGS:-})
source "$(dirname "$0")/lib/cached_reads.sh"
cached_dataset "$TB" "$data" "$files"
out=/tmp/trainbench-bench/timeseries
rows=$(mktemp)
for r in $(seq "$rounds"); do
  for interval in "${intervals[@]}"; do
    rm -rf "$out"
    "$TB" run resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data" \
      "train.epochs=$epochs" train.computation_time=0 --accelerators "$accelerators" \
      --io-engine null --interval "$interval" "output.folder=$out" --no-progress "${extra[@]}" \
      >/dev/null 2>&1
    /usr/bin/python3 - "$out"/*/ "$interval" >>"$rows" <<'PY'
import csv, json, os, sys
d, interval = sys.argv[1], sys.argv[2]
s = json.load(open(os.path.join(d, "summary.json")))
n = 0
if os.path.exists(os.path.join(d, "timeseries.csv")):
    n = sum(1 for _ in csv.DictReader(open(os.path.join(d, "timeseries.csv"))))
print(interval, s["metric"]["train_throughput_mean_samples_per_second"], s["cpu_us_per_sample"],
      s["run_seconds"], n, s.get("timeseries_cpu_seconds", 0), s["cpu_seconds"])
PY
  done
done
/usr/bin/python3 - "$rows" "${intervals[@]}" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
base = None
print(f"{'interval':>8} {'samples/s':>12} {'CPU us/sample':>14} {'run s':>7} {'rows':>5} {'sampler CPU':>12}  (medians of {len(rows) // len(sys.argv[2:])} rounds)")
for interval in sys.argv[2:]:
    mine = [r for r in rows if r[0] == interval]
    sps = statistics.median(float(r[1]) for r in mine)
    cpu = statistics.median(float(r[2]) for r in mine)
    secs = statistics.median(float(r[3]) for r in mine)
    n = statistics.median(int(r[4]) for r in mine)
    # The sampler thread's own CPU time over the run's (summary.json's timeseries_cpu_*):
    # measured where it is spent, so the machine's noise does not hide or fake it.
    share = statistics.median(float(r[5]) / float(r[6]) for r in mine)
    extra = ""
    if base:
        extra = f"   samples/s {100 * (sps / base[0] - 1):+.2f}%, CPU/sample {100 * (cpu / base[1] - 1):+.2f}%"
    else:
        base = (sps, cpu)
    print(f"{interval:>8} {sps:>12.0f} {cpu:>14.3f} {secs:>7.2f} {n:>5.0f} {100 * share:>11.4f}%{extra}")
PY
rm -f "$rows"
