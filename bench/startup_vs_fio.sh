#!/usr/bin/env bash
# Start-up with many files: retinanet_b200's layout (one 2.6 KB JPEG per sample, all in
# train/) at each of SIZES file counts, read once from the page cache by trainbench run (one
# accelerator, computation_time 0, one epoch) and by fio (one job over the same folder,
# opendir, each file opened, its whole blocks read, closed). Per count and tool: start-up = the
# process's wall time minus the time its own report gives to reading (trainbench's
# summary.json run_seconds; fio's read runtime), i.e. listing, manifest, planning and exit;
# peak RSS (/usr/bin/time); and trainbench's RSS above its own at 1,000 files, per file (its
# per-file state). Best of REPEAT alternating runs.
# Usage: bench/startup_vs_fio.sh [DATA_ROOT]  (env: SIZES="1000 10000 100000", REPEAT=3;
#   SIZES="1000 10000 100000 1170000" adds retinanet_b200's real count: ~3 GB, 1.2 M inodes)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
root=${1:-/tmp/trainbench-bench/startup}
read -r -a sizes <<<"${SIZES:-1000 10000 100000}"
repeat=${REPEAT:-3}
work=$root/work
mkdir -p "$work"
shape=(dataset.record_length_bytes=2600 dataset.record_length_bytes_stdev=0)

tb_run() {  # tb_run N -> "startup_s rss_kb"
  local data=$root/$1
  rm -rf "$work/out"
  /usr/bin/time -f "%e %M" -o "$work/time" "$TB" run retinanet_b200 "dataset.num_files_train=$1" \
    "dataset.data_folder=$data" "${shape[@]}" train.epochs=1 train.computation_time=0 \
    output.folder="$work/out" --no-progress --no-warnings --interval 0 >/dev/null 2>&1
  /usr/bin/python3 - "$work/time" "$(ls -d "$work"/out/*/)summary.json" <<'PY'
import json, sys
wall, rss = open(sys.argv[1]).read().split()[-2:]
s = json.load(open(sys.argv[2]))
print(float(wall) - s["run_seconds"], rss)
PY
}
fio_run() {  # fio_run N -> "startup_s rss_kb"
  local data=$root/$1 smallest
  # fio reads whole blocks only: a block no larger than the smallest file reads every file.
  smallest=$(find "$data/train" -type f -printf '%s\n' | sort -n | head -n 1)
  printf "[global]\nrw=read\nbs=%s\nioengine=psync\ninvalidate=0\nfile_service_type=sequential\nopenfiles=1\n[job0]\nopendir=%s\n" \
    "$((smallest / 512 * 512))" "$data/train" >"$work/fio.job"
  # fio's file records come from a shared pool of 16 MiB by default, too small past ~40k
  # files ("smalloc: OOM"): 1 KiB more per file.
  /usr/bin/time -f "%e %M" -o "$work/time" fio --alloc-size=$((16384 + $1)) \
    --output-format=json "$work/fio.job" >"$work/fio.json" 2>/dev/null
  /usr/bin/python3 - "$work/time" "$work/fio.json" <<'PY'
import json, sys
wall, rss = open(sys.argv[1]).read().split()[-2:]
text = open(sys.argv[2]).read()  # fio prints lines around its JSON (opendir)
r = json.JSONDecoder().raw_decode(text[text.index("{"):])[0]["jobs"][0]["read"]
assert r["io_bytes"] > 0, "fio read nothing: the comparison is void"
print(float(wall) - r["runtime"] / 1e3, rss)
PY
}
best() {  # best "a b" "c d": element-wise minimum (lower is better)
  /usr/bin/python3 -c 'import sys
a, b = sys.argv[1].split(), sys.argv[2].split()
print(*(b if not a else [min(float(x), float(y)) for x, y in zip(a, b)]))' "$1" "$2"
}

printf "%9s %12s %12s %7s %12s %12s %7s %14s\n" files "fio start s" "tb start s" ratio \
  "fio RSS MB" "tb RSS MB" ratio "tb B/file"
base_rss=""
for n in "${sizes[@]}"; do
  "$TB" datagen retinanet_b200 "dataset.num_files_train=$n" "dataset.data_folder=$root/$n" \
    "${shape[@]}" --no-warnings --no-progress >"$work/datagen.log" 2>&1
  find "$root/$n/train" -type f -exec cat {} + >/dev/null  # into the page cache
  fio_best="" tb_best=""
  for _ in $(seq "$repeat"); do
    fio_best=$(best "$fio_best" "$(fio_run "$n")")
    tb_best=$(best "$tb_best" "$(tb_run "$n")")
  done
  read -r fs frss <<<"$fio_best"
  read -r ts trss <<<"$tb_best"
  [ -n "$base_rss" ] || base_rss=$trss
  /usr/bin/python3 -c 'import sys
n, fs, ts, frss, trss, base = map(float, sys.argv[1:])
per_file = (trss - base) * 1024 / (n - 1000) if n > 1000 else float("nan")
print(f"{n:9.0f} {fs:12.2f} {ts:12.2f} {ts / fs:7.2f} {frss / 1024:12.1f} {trss / 1024:12.1f} "
      f"{trss / frss:7.2f} {per_file:14.0f}")' "$n" "$fs" "$ts" "$frss" "$trss" "$base_rss"
done
echo "(start-up = wall time - each tool's own reading time; best of $repeat; tb B/file: RSS above"
echo " the 1,000-file run's, per file more; $(date -u +%F), $(nproc) CPUs)"
