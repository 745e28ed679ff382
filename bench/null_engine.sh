#!/usr/bin/env bash
# trainbench's own cost per sample: `run --io-engine null` completes every read at once
# without touching storage (fio's null ioengine), so samples/s is the ceiling above any
# storage and CPU us per sample is what claiming, splitting, submitting, reaping and
# recording a sample costs. The same runs over the page-cached files with pread show how
# much of a cached run is storage (the kernel's copy) rather than trainbench.
# Goal (issue 9): null engine <= 10 CPU us per sample.
# Usage: bench/null_engine.sh [DATA_DIR] [ACCELERATORS...]   (env: FILES, EPOCHS, REPEAT)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
data=${1:-/tmp/trainbench-bench/resnet50}
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 8 64)
files=${FILES:-24}
epochs=${EPOCHS:-3}
repeat=${REPEAT:-3}
common=(resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data")
source "$(dirname "$0")/lib/cached_reads.sh"
cached_dataset "$TB" "$data" "$files"
out=/tmp/trainbench-bench/null
printf "%-6s %-6s %12s %10s %10s %8s\n" accel engine samples/s "GB/s" "us/sample" threads
for n in "${counts[@]}"; do
  for engine in null pread; do
    best=""
    for _ in $(seq "$repeat"); do  # best of REPEAT: the host may be shared
      rm -rf "$out"
      "$TB" run "${common[@]}" "train.epochs=$epochs" train.computation_time=0 \
        --accelerators "$n" --io-engine "$engine" "output.folder=$out" --no-progress \
        >/dev/null 2>&1
      row=$(/usr/bin/python3 - "$out"/*/summary.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["metric"]
print(m["train_throughput_mean_samples_per_second"], m["train_io_mean_MB_per_second"] / 1e3,
      d["cpu_us_per_sample"], d["io_threads"])
PY
)
      best=$(/usr/bin/python3 -c 'import sys
a = sys.argv[1].split(); b = sys.argv[2].split()
print(" ".join(b) if not a or float(b[2]) < float(a[2]) else " ".join(a))' "$best" "$row")
    done
    set -- $best
    printf "%-6s %-6s %12.0f %10.2f %10.2f %8s\n" "$n" "$engine" "$1" "$2" "$3" "$4"
  done
done
echo "(computation_time 0, resnet50_h100 samples of 114,660 B, one transfer each; GB/s for"
echo " null is what trainbench would have asked storage for; best of $repeat by CPU per sample)"
