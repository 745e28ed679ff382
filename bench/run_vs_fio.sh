#!/usr/bin/env bash
# trainbench run vs fio on the same files from page cache: computation_time 0, one
# accelerator, the same transfer size and the same number of reader threads / jobs.
# Prints, per thread count and engine (fio psync vs trainbench pread, fio io_uring vs
# trainbench --io-engine uring): read GB/s and GB per CPU-second of each, and the ratios.
# GB per CPU-second is the fair figure on a shared host: fio's job processes call
# setsid(), so with the kernel's autogroup scheduling each job gets a whole session's
# CPU share, while trainbench's reader threads share one.
# Usage: bench/run_vs_fio.sh [DATA_DIR] [THREADS...]   (env: FILES, TRANSFER, EPOCHS)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
data=${1:-/tmp/trainbench-bench/resnet50}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2)
files=${FILES:-24}            # 24 x 1251 x 114.7 KB = 3.4 GB
transfer=${TRANSFER:-262144}  # reader.transfer_size; larger than a sample: one read each
epochs=${EPOCHS:-5}
repeat=${REPEAT:-3}  # best of N for each tool: the host may be shared
common=(resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data")
source "$(dirname "$0")/lib/cached_reads.sh"
cached_dataset "$TB" "$data" "$files"
# fio reads what trainbench reads: each file start to end in sample-sized pieces.
sample=$(/usr/bin/python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"][0]; print(max(f["sample_lengths"]))' "$data/trainbench_manifest.json")
bs=$((sample < transfer ? sample : transfer))
fio_run() {  # fio_run ENGINE JOBS -> "GB/s GB_per_cpu_s": JOBS jobs over disjoint shares
  local jobfile=/tmp/trainbench-bench/fio.job
  write_fio_job "$jobfile" "$data" "$bs" "$1" "$epochs" "$2"
  /usr/bin/time -f "%U %S" -o /tmp/trainbench-bench/cpu fio --output-format=json "$jobfile" \
    2>/dev/null >/tmp/trainbench-bench/fio.json
  /usr/bin/python3 - <<'PY'
import json
r = json.load(open("/tmp/trainbench-bench/fio.json"))["jobs"][0]["read"]
cpu = sum(map(float, open("/tmp/trainbench-bench/cpu").read().split()))
print(r["io_bytes"] / (r["runtime"] / 1e3) / 1e9, r["io_bytes"] / cpu / 1e9)
PY
}
tb_run() {  # tb_run THREADS ENGINE -> "GB/s GB_per_cpu_s"
  /usr/bin/time -f "%U %S" -o /tmp/trainbench-bench/cpu "$TB" run "${common[@]}" \
    train.computation_time=0 "train.epochs=$epochs" "reader.read_threads=$1" \
    "reader.transfer_size=$transfer" --io-threads "$1" --io-engine "$2" \
    output.folder=/tmp/trainbench-bench/out --no-progress 2>/dev/null | tail -n 1 \
    >/tmp/trainbench-bench/tb.json
  /usr/bin/python3 - <<'PY'
import json
m = json.load(open("/tmp/trainbench-bench/tb.json"))["trainbench_metrics"]
cpu = sum(map(float, open("/tmp/trainbench-bench/cpu").read().split()))
print(m["io_mb_per_second"] / 1e3, m["bytes_read"] / cpu / 1e9)
PY
}
printf "%-8s %-21s %9s %9s %7s %13s %13s %7s\n" threads engine "fio GB/s" "tb GB/s" ratio \
  "fio GB/CPU-s" "tb GB/CPU-s" ratio
engines_table "$repeat" "8 21" "9.2f 13.2f" "${threads[@]}"
echo "(GB = 10^9 bytes; best of $repeat; fio: JOBS jobs over disjoint shares of the files in"
echo " sample-sized blocks; trainbench: one accelerator, read_threads = io threads = JOBS)"
