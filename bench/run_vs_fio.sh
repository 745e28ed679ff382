#!/usr/bin/env bash
# trainbench run vs fio on the same files from page cache: computation_time 0, one
# accelerator, the same transfer size and the same number of reader threads / jobs.
# Prints read GB/s of fio (psync and io_uring) and trainbench, and their ratio.
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
"$TB" datagen "${common[@]}" >/dev/null
cat "$data"/train/* >/dev/null  # into page cache (fio runs with invalidate=0 to keep it)
# fio reads what trainbench reads: each file start to end in sample-sized pieces.
sample=$(/usr/bin/python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"][0]; print(max(f["sample_lengths"]))' "$data/trainbench_manifest.json")
bs=$((sample < transfer ? sample : transfer))
fio_gbps() {  # fio_gbps ENGINE JOBS: JOBS jobs over disjoint shares of the files (as
  # trainbench's readers share one pass); jobs reading the same files at once would
  # find each other's bytes in CPU caches and flatter fio.
  local jobfile=/tmp/trainbench-bench/fio.job files=("$data"/train/*)
  {
    printf "[global]\nrw=read\nbs=%s\nioengine=%s\niodepth=1\ninvalidate=0\nloops=%s\ngroup_reporting\n" \
      "$bs" "$1" "$epochs"
    for ((j = 0; j < $2; j++)); do
      local mine=()
      for ((i = j; i < ${#files[@]}; i += $2)); do mine+=("${files[i]}"); done
      printf "[job%s]\nfilename=%s\n" "$j" "$(IFS=:; echo "${mine[*]}")"
    done
  } >"$jobfile"
  fio --output-format=json "$jobfile" 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]["read"]; print(j["io_bytes"]/(j["runtime"]/1e3)/1e9 if j["runtime"] else 0)'
}
best() {  # best CMD...: the largest of $repeat runs of CMD (one number each)
  local b=0 v
  for _ in $(seq "$repeat"); do
    v=$("$@")
    b=$(/usr/bin/python3 -c 'import sys; print(max(float(sys.argv[1]), float(sys.argv[2])))' "$b" "$v")
  done
  echo "$b"
}
tb_gbps() {  # tb_gbps THREADS ENGINE
  "$TB" run "${common[@]}" train.computation_time=0 "train.epochs=$epochs" \
    "reader.read_threads=$1" "reader.transfer_size=$transfer" --io-threads "$1" --io-engine "$2" \
    output.folder=/tmp/trainbench-bench/out --no-progress 2>/dev/null | tail -n 1 |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["trainbench_metrics"]["io_mb_per_second"]/1e3)'
}
printf "%-8s %10s %10s %10s %10s %12s %12s\n" threads "fio psync" "fio uring" "tb pread" "tb uring" "pread/psync" "uring/uring"
for t in "${threads[@]}"; do
  psync=$(best fio_gbps psync "$t")
  uring=$(best fio_gbps io_uring "$t")
  tb=$(best tb_gbps "$t" pread)
  tbu=$(best tb_gbps "$t" uring)
  /usr/bin/python3 -c 'import sys; t,p,u,b,c=sys.argv[1:]; p,u,b,c=map(float,(p,u,b,c)); print(f"{t:<8} {p:10.2f} {u:10.2f} {b:10.2f} {c:10.2f} {b/p:12.2f} {c/u:12.2f}")' "$t" "$psync" "$uring" "$tb" "$tbu"
done
echo "(GB/s = 10^9 bytes/s, best of $repeat; fio: JOBS jobs over disjoint shares of the files in sample-sized blocks; trainbench: one accelerator, read_threads = io threads = JOBS)"
