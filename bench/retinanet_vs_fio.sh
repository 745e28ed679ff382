#!/usr/bin/env bash
# retinanet (MLPerf Storage v3.0: one JPEG per sample) scaled down to FILES files, read from
# page cache by trainbench run (computation_time 0, one accelerator) and by fio over the
# same files in one run, with the same block size and threads: fio's JOBS jobs read
# disjoint shares of the files (trainbench's read threads share one pass), each file opened,
# read and closed before the next (file_service_type=sequential, openfiles=1), as a loader
# reads one file per sample. Many small files make it metadata-heavy: an open and a close
# per ~180 KB. fio reads only whole blocks of a file, so the block (and trainbench's
# reader.transfer_size) is the smallest file's size rounded down to 4 KiB: fio reads one
# block of each file, trainbench that block and the few KB left. Prints, per thread count
# and engine (fio psync vs trainbench pread, io_uring vs uring): GB/s, files/s and GB per
# CPU-second (the fair figure on a shared host; see bench/run_vs_fio.sh) of each, with
# trainbench / fio ratios.
# Usage: bench/retinanet_vs_fio.sh [DATA_DIR] [THREADS...]  (env: FILES, EPOCHS, REPEAT)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
data=${1:-/tmp/trainbench-bench/retinanet}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 4)
files=${FILES:-3000}
epochs=${EPOCHS:-3}
repeat=${REPEAT:-3}  # best of N for each tool: the host may be shared
work=/tmp/trainbench-bench
source "$(dirname "$0")/lib/cached_reads.sh"
mkdir -p "$work"
common=(retinanet_b200 "dataset.num_files_train=$files" "dataset.data_folder=$data")
"$TB" datagen "${common[@]}" --no-warnings --no-progress >/dev/null
cat "$data"/train/* >/dev/null  # into the page cache
read -r smallest total < <(stat -c %s "$data"/train/* | sort -n |
  awk 'NR == 1 {s = $1} {t += $1} END {print s, t}')
bs=$((smallest / 4096 * 4096))

# fio_shares JOBS: folders $work/fio-share-J of hard links (the same inodes, so the same
# cached pages) to job J's disjoint share of the files, for fio's opendir: a list of
# thousands of names in filename= exceeds fio's job-file line limit.
fio_shares() {
  local list=("$data"/train/*) j i
  rm -rf "$work"/fio-share-*
  for ((j = 0; j < $1; j++)); do
    mkdir -p "$work/fio-share-$j"
    for ((i = j; i < ${#list[@]}; i += $1)); do echo "${list[i]}"; done |
      xargs ln -t "$work/fio-share-$j"
  done
}
fio_run() {  # fio_run ENGINE JOBS -> "GB/s files/s GB_per_cpu_s"
  {
    printf "[global]\nrw=read\nbs=%s\niodepth=1\ninvalidate=0\nloops=%s\n" "$bs" "$epochs"
    fio_engine_lines "$1"
    printf "group_reporting\nfile_service_type=sequential\nopenfiles=1\n"
    for ((j = 0; j < $2; j++)); do printf "[job%s]\nopendir=%s\n" "$j" "$work/fio-share-$j"; done
  } >"$work/fio.job"
  /usr/bin/time -f "%U %S" -o "$work/cpu" fio --output-format=json "$work/fio.job" \
    2>/dev/null >"$work/fio.json"
  /usr/bin/python3 - "$work" "$files" "$epochs" <<'PY'
import json, sys
text = open(sys.argv[1] + "/fio.json").read()  # fio prints lines around its JSON (opendir)
r = json.JSONDecoder().raw_decode(text[text.index("{"):])[0]["jobs"][0]["read"]
cpu = sum(map(float, open(sys.argv[1] + "/cpu").read().split()))
s = r["runtime"] / 1e3
print(r["io_bytes"] / s / 1e9, int(sys.argv[2]) * int(sys.argv[3]) / s, r["io_bytes"] / cpu / 1e9)
PY
}
tb_run() {  # tb_run THREADS ENGINE -> "GB/s files/s GB_per_cpu_s"
  /usr/bin/time -f "%U %S" -o "$work/cpu" "$TB" run "${common[@]}" train.computation_time=0 \
    "train.epochs=$epochs" "reader.read_threads=$1" "reader.transfer_size=$bs" \
    --io-threads "$1" --io-engine "$2" "output.folder=$work/out" --no-progress --no-warnings \
    2>/dev/null | tail -n 1 >"$work/tb.json"
  /usr/bin/python3 - "$work" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/tb.json"))["trainbench_metrics"]
cpu = sum(map(float, open(sys.argv[1] + "/cpu").read().split()))
print(m["io_mb_per_second"] / 1e3, m["samples_per_second"], m["bytes_read"] / cpu / 1e9)
PY
}
echo "retinanet_b200 x $files JPEG files ($((total / files)) B mean, $smallest B smallest), $epochs" \
  "epochs from page cache; block = transfer_size = $bs B"
printf "%-7s %-20s %8s %8s %7s %9s %9s %7s %9s %9s %7s\n" threads engine "fio GB/s" "tb GB/s" \
  ratio "fio f/s" "tb f/s" ratio "fio GB/cs" "tb GB/cs" ratio
before_threads() { fio_shares "$1"; }
engines_table "$repeat" "7 20" "8.2f 9.0f 9.2f" "${threads[@]}"
rm -rf "$work"/fio-share-*
echo "(GB = 10^9 bytes; f/s = files (samples) per second; GB/cs = GB per CPU-second; best of"
echo " $repeat; ratio = trainbench / fio; fio: JOBS jobs over disjoint shares of the files;"
echo " trainbench: one accelerator, read_threads = io threads = JOBS)"
