#!/usr/bin/env bash
# resnet50_h100's compute demand with 1..128 emulated accelerators in one process over a
# page-cached dataset: AU, samples/s, GB/s, CPU % (of one core), CPU us per sample, peak
# RSS and RSS per accelerator.
# resnet50_h100 computes 0.224 s per batch of 400 (1786 samples/s, 205 MB/s per
# accelerator). 128 accelerators x 400 would need 51,200 samples for a single step, so
# the bench keeps that demand with batch 400/SCALE and 0.224/SCALE s (SCALE=8: batch 50,
# 0.028 s): the same bytes per second per accelerator over a 3.4 GB dataset.
# Usage: bench/accelerator_scaling.sh [DATA_DIR] [COUNTS...]
#        (env: FILES, EPOCHS, SCALE, ENGINE=pread|uring)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
data=${1:-/tmp/trainbench-bench/resnet50}
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 8 32 64 80 96 112 128)  # fine steps where fio's limit falls
files=${FILES:-24}  # DLIO's resnet50 run: 24 files x 1251 samples
epochs=${EPOCHS:-1}
scale=${SCALE:-8}
engine=${ENGINE:-pread}
batch=$((400 / scale))
compute=$(/usr/bin/python3 -c "print(0.224 / $scale)")
common=(resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data")
source "$(dirname "$0")/lib/cached_reads.sh"
cached_dataset "$TB" "$data" "$files"
out=/tmp/trainbench-bench/out
mkdir -p "$out"
# What fio reads from these files with one job per core, and how many accelerators that
# rate could feed at resnet50_h100's demand (400 x 114660 B / 0.224 s).
cores=$(nproc)
write_fio_job "$out/fio.job" "$data" 114720 psync 3 "$cores"
fio_gbps=$(fio --output-format=json "$out/fio.job" 2>/dev/null | /usr/bin/python3 -c \
  'import json,sys; r=json.load(sys.stdin)["jobs"][0]["read"]; print(r["io_bytes"]/(r["runtime"]/1e3)/1e9)')
feeds=$(/usr/bin/python3 -c "print(int($fio_gbps * 1e9 / (400 * 114660 / 0.224)))")
echo "fio psync, $cores jobs: $fio_gbps GB/s: enough for $feeds accelerators at 205 MB/s each"
largest=0
printf "%-6s %6s %7s %8s %12s %10s %8s %10s %12s %10s\n" accel steps "AU %" pass samples/s "GB/s" "CPU %" "us/sample" "peak RSS MiB" "MiB/accel"
for n in "${counts[@]}"; do
  rm -rf "${out:?}/$n"
  "$TB" run "${common[@]}" "train.epochs=$epochs" --accelerators "$n" \
    "reader.batch_size=$batch" "train.computation_time=$compute" --io-engine "$engine" \
    "output.folder=$out/$n" --no-progress >/dev/null 2>&1 || true
  dir=$(echo "$out/$n"/*/)
  /usr/bin/python3 - "$dir/summary.json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
m = d["metric"]
rss = d["peak_rss_bytes"] / 2**20
cpu = 100 * d["cpu_seconds"] / d["run_seconds"] if d["run_seconds"] else 0
gbps = m["train_io_mean_MB_per_second"] / 1e3
print(f"{n:<6} {d['steps_per_epoch']:6} {m['train_au_mean_percentage']:7.2f} {str(d['passed']):>8} "
      f"{m['train_throughput_mean_samples_per_second']:12.1f} {gbps:10.2f} {cpu:8.1f} "
      f"{d['cpu_us_per_sample']:10.2f} {rss:12.1f} {rss / n:10.3f}")
PY
  [ "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["passed"])' "$dir/summary.json")" = True ] &&
    [ "$n" -gt "$largest" ] && largest=$n
done
echo "largest count passing AU: $largest; fio's rate could feed $feeds: ratio" \
  "$(/usr/bin/python3 -c "print(round($largest / max(1, $feeds), 2))")"
echo "(CPU % is of one core; on a shared host fio's job processes each get their own"
echo " scheduler autogroup (setsid) and so a larger CPU share than trainbench's threads)"
