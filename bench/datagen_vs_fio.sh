#!/usr/bin/env bash
# datagen against fio: the same bytes written sequentially, same block size (1 MiB),
# same number of jobs/threads, same file system, in one run. Rounds alternate the two
# tools (sync and file removal between, untimed) and the median of each is compared.
# Usage: bench/datagen_vs_fio.sh [DIR] [FILES] [THREADS] [ROUNDS]
#   DIR default: /tmp/trainbench-bench (must be on the file system to measure)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tb=$root/build/trainbench
dir=${1:-/tmp/trainbench-bench}
files=${2:-16}
threads=${3:-$(nproc)}
rounds=${4:-3}
command -v fio >/dev/null || { echo "fio is missing: bash scripts/setup.sh" >&2; exit 1; }
[ -x "$tb" ] || { echo "build first: bash scripts/build.sh" >&2; exit 1; }
(( files % threads == 0 )) || { echo "FILES must be a multiple of THREADS" >&2; exit 1; }

workload=(resnet50_h100 "dataset.num_files_train=$files")
mkdir -p "$dir"
tb_rates=() fio_rates=()
for r in $(seq "$rounds"); do
  rm -rf "$dir/tb" "$dir/fio"; sync
  out=$("$tb" datagen "${workload[@]}" "dataset.data_folder=$dir/tb" --threads "$threads" --no-progress 2>/dev/null)
  bytes=$(sed -n 's/.* \([0-9]*\) bytes (.*written in \([0-9.]*\) s.*/\1 \2/p' <<<"$out")
  tb_rate=$(awk '{printf "%.3f", $1 / $2 / 1e9}' <<<"$bytes")
  file_bytes=$(( ${bytes% *} / files ))
  rm -rf "$dir/tb"; sync; mkdir -p "$dir/fio"
  fio_rate=$(fio --name=datagen --directory="$dir/fio" --rw=write --bs=1M --ioengine=psync \
    --numjobs="$threads" --nrfiles=$((files / threads)) --filesize="$file_bytes" --fallocate=none \
    --file_service_type=sequential --group_reporting --output-format=json |
    /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print("%.3f" % (j["jobs"][0]["write"]["bw_bytes"]/1e9))')
  echo "round $r: trainbench $tb_rate GB/s, fio $fio_rate GB/s ($(( ${bytes% *} / 1000000 )) MB, $threads threads)"
  tb_rates+=("$tb_rate") fio_rates+=("$fio_rate")
done
rm -rf "$dir/tb" "$dir/fio"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
tb_med=$(median "${tb_rates[@]}") fio_med=$(median "${fio_rates[@]}")
echo "median: trainbench datagen $tb_med GB/s, fio sequential write $fio_med GB/s, ratio $(awk -v a="$tb_med" -v b="$fio_med" 'BEGIN {printf "%.2f", a / b}')"
