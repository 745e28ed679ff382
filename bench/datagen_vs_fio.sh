#!/usr/bin/env bash
# datagen against fio: the same bytes written sequentially, same block size (1 MiB),
# same number of jobs/threads, same file system, in one run. Rounds alternate the two
# tools (sync and file removal between, untimed) and the median of each is compared:
# - GB/s as each tool reports it (fio's counts only its I/O phase, not job start-up, file
#   creation and close; trainbench's counts all of Generate, manifest included);
# - GB per wall-clock second of the whole command, the same clock for both;
# - GB per CPU-second (user + system, whole process tree), which a noisy shared host
#   disturbs far less.
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
tb_rates=() fio_rates=() tb_cpus=() fio_cpus=() tb_walls=() fio_walls=()
for r in $(seq "$rounds"); do
  rm -rf "$dir/tb" "$dir/fio"; sync
  out=$(/usr/bin/time -f '%e %U %S' -o "$dir/tb.time" "$tb" datagen "${workload[@]}" "dataset.data_folder=$dir/tb" \
    --threads "$threads" --no-progress --no-warnings 2>/dev/null)
  bytes=$(sed -n 's/.* \([0-9]*\) bytes (.*written in \([0-9.]*\) s.*/\1 \2/p' <<<"$out")
  tb_rate=$(awk '{printf "%.3f", $1 / $2 / 1e9}' <<<"$bytes")
  file_bytes=$(( ${bytes% *} / files ))
  rm -rf "$dir/tb"; sync; mkdir -p "$dir/fio"
  fio_rate=$(/usr/bin/time -f '%e %U %S' -o "$dir/fio.time" fio --name=datagen --directory="$dir/fio" --rw=write --bs=1M --ioengine=psync \
    --numjobs="$threads" --nrfiles=$((files / threads)) --filesize="$file_bytes" --fallocate=none \
    --file_service_type=sequential --group_reporting --output-format=json |
    /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print("%.3f" % (j["jobs"][0]["write"]["bw_bytes"]/1e9))')
  per_cpu() { awk -v b="${bytes% *}" '{printf "%.3f", b / ($2 + $3) / 1e9}' "$1"; }
  per_wall() { awk -v b="${bytes% *}" '{printf "%.3f", b / $1 / 1e9}' "$1"; }
  tb_cpu=$(per_cpu "$dir/tb.time") fio_cpu=$(per_cpu "$dir/fio.time")
  tb_wall=$(per_wall "$dir/tb.time") fio_wall=$(per_wall "$dir/fio.time")
  echo "round $r: trainbench $tb_rate GB/s (wall $tb_wall, $tb_cpu GB/CPU-s)," \
    "fio $fio_rate GB/s (wall $fio_wall, $fio_cpu GB/CPU-s), $(( ${bytes% *} / 1000000 )) MB, $threads threads"
  tb_rates+=("$tb_rate") fio_rates+=("$fio_rate") tb_cpus+=("$tb_cpu") fio_cpus+=("$fio_cpu")
  tb_walls+=("$tb_wall") fio_walls+=("$fio_wall")
done
rm -rf "$dir/tb" "$dir/fio" "$dir/tb.time" "$dir/fio.time"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
tb_med=$(median "${tb_rates[@]}") fio_med=$(median "${fio_rates[@]}")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
tb_cpu_med=$(median "${tb_cpus[@]}") fio_cpu_med=$(median "${fio_cpus[@]}")
echo "median: trainbench datagen $tb_med GB/s, fio sequential write $fio_med GB/s, ratio $(ratio "$tb_med" "$fio_med")"
tb_wall_med=$(median "${tb_walls[@]}") fio_wall_med=$(median "${fio_walls[@]}")
echo "median per wall-clock second of the whole command: trainbench $tb_wall_med GB, fio $fio_wall_med GB, ratio $(ratio "$tb_wall_med" "$fio_wall_med")"
echo "median per CPU-second: trainbench $tb_cpu_med GB, fio $fio_cpu_med GB, ratio $(ratio "$tb_cpu_med" "$fio_cpu_med")"
