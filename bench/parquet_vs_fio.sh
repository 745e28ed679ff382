#!/usr/bin/env bash
# dlrm's Parquet selective reads: trainbench run vs fio replaying the same byte ranges, from
# page cache, in one run. The dataset is dlrm_b200's shape scaled down (FILES files of ROWS
# rows of 160 B, row groups of 8192 rows, label + numerical_features + categorical_features
# as float32) with categorical_features marked read: false, so a run reads, once per row
# group, the label and numerical_features column chunks (36% of the bytes) and skips the
# rest. fio replays an iolog (one per job, files dealt out round robin) that lists exactly
# those chunks in transfer_size pieces, taken from the manifest's row groups, x EPOCHS.
# Prints, per thread count and engine (fio psync vs trainbench pread, fio io_uring vs
# trainbench --io-engine uring): read GB/s and GB per CPU-second of each, the ratios, and
# the bytes and reads each tool did (the same, or the comparison is void).
# With BASELINE=<an older trainbench binary>, it then compares the two trainbenches' own CPU
# per byte for the same reads (one thread, pread), each over a dataset its own datagen wrote
# (the baseline's in DATA_DIR.baseline), runs alternating AB_ROUNDS times: how much a change
# of the layout or of the read path costs, with the host's noise shared by both.
# Usage: bench/parquet_vs_fio.sh [DATA_DIR] [THREADS...]
#   (env: FILES, ROWS, EPOCHS, TRANSFER, REPEAT, BASELINE, AB_ROUNDS)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
data=${1:-/tmp/trainbench-bench/dlrm_parquet}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 4)
files=${FILES:-16}            # 16 x 262144 rows x 160 B = 671 MB, 242 MB of it read per epoch
rows=${ROWS:-262144}
epochs=${EPOCHS:-10}
transfer=${TRANSFER:-262144}  # reader.transfer_size: numerical_features' 426 KB chunks in two
repeat=${REPEAT:-3}           # best of N for each tool: the host may be shared
work=/tmp/trainbench-bench/parquet  # its own: other harnesses write beside it
mkdir -p "$work"
yaml=$work/dlrm_parquet.yaml
cat >"$yaml" <<YAML
model: {name: dlrm}
framework: pytorch
workflow: {generate_data: false, train: true}
dataset:
  format: parquet
  num_files_train: $files
  num_samples_per_file: $rows
  record_length_bytes: 160
  data_folder: $data
  parquet:
    row_group_size: 8192
    read_mode: row_group
    columns: [{name: label, dtype: float32, size: 1}, {name: numerical_features, dtype: float32,
      size: 13}, {name: categorical_features, dtype: float32, size: 26, read: false}]
reader: {data_loader: pytorch, batch_size: 16384, prefetch_size: 2}
train: {computation_time: 0}
YAML
"$TB" datagen "$yaml" --no-warnings --no-progress >/dev/null
cat "$data"/train/* >/dev/null

# iologs JOBS: $work/parquet.iolog.J for each job J, from the manifest's row groups
# (units: [rows, offset, length per column...]): columns 0 and 1 in TRANSFER pieces.
iologs() {
  /usr/bin/python3 - "$data" "$1" "$transfer" "$epochs" "$work/parquet.iolog" <<'PY'
import json, sys
data, jobs, transfer, epochs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
files = [f for f in json.load(open(f"{data}/trainbench_manifest.json"))["files"]
         if f["path"].startswith("train/")]
for j in range(jobs):
    mine = files[j::jobs]
    lines = ["fio version 2 iolog"]
    for f in mine:
        lines += [f"{data}/{f['path']} add"]
    for _ in range(epochs):
        for f in mine:
            name = f"{data}/{f['path']}"
            lines.append(f"{name} open")
            for unit in f["units"]:
                for offset, length in (unit[1:3], unit[3:5]):  # label, numerical_features
                    for at in range(offset, offset + length, transfer):
                        lines.append(f"{name} read {at} {min(transfer, offset + length - at)}")
            lines.append(f"{name} close")
    open(f"{out}.{j}", "w").write("\n".join(lines) + "\n")
PY
}
fio_run() {  # fio_run ENGINE JOBS -> "GB/s GB_per_cpu_s"
  local jobfile=$work/parquet_fio.job
  iologs "$2"
  {
    printf "[global]\niodepth=1\ninvalidate=0\ngroup_reporting\n"
    fio_engine_lines "$1"
    for ((j = 0; j < $2; j++)); do printf "[job%s]\nread_iolog=%s\n" "$j" "$work/parquet.iolog.$j"; done
  } >"$jobfile"
  /usr/bin/time -f "%U %S" -o "$work/cpu" fio --output-format=json "$jobfile" 2>/dev/null \
    >"$work/fio.json"
  /usr/bin/python3 - "$work" <<'PY'
import json, sys
r = json.load(open(f"{sys.argv[1]}/fio.json"))["jobs"][0]["read"]
cpu = sum(map(float, open(f"{sys.argv[1]}/cpu").read().split()))
print(r["io_bytes"] / (r["runtime"] / 1e3) / 1e9, r["io_bytes"] / cpu / 1e9, r["io_bytes"], r["total_ios"])
PY
}
tb_run() {  # tb_run THREADS ENGINE -> "GB/s GB_per_cpu_s bytes reads"
  rm -rf "$work/out"
  /usr/bin/time -f "%U %S" -o "$work/cpu" "$TB" run "$yaml" "train.epochs=$epochs" \
    "reader.read_threads=$1" "reader.transfer_size=$transfer" --io-threads "$1" \
    --io-engine "$2" --accelerators 1 output.folder="$work/out" --no-progress --no-warnings \
    2>/dev/null | grep '^{"trainbench_metrics"' | tail -n 1 >"$work/tb.json"
  /usr/bin/python3 - "$work" "$(ls -dt "$work"/out/*/ | head -n 1)" <<'PY'
import json, sys
m = json.load(open(f"{sys.argv[1]}/tb.json"))["trainbench_metrics"]
io = json.load(open(f"{sys.argv[2]}/summary.json"))["io_characterization"]
cpu = sum(map(float, open(f"{sys.argv[1]}/cpu").read().split()))
print(m["io_mb_per_second"] / 1e3, m["bytes_read"] / cpu / 1e9, m["bytes_read"], io["POSIX_READS"])
PY
}
source "$(dirname "$0")/lib/cached_reads.sh"
printf "%-8s %-21s %9s %9s %7s %13s %13s %7s %s\n" threads engine "fio GB/s" "tb GB/s" ratio \
  "fio GB/CPU-s" "tb GB/CPU-s" ratio "bytes, reads"
engines_table "$repeat" "8 21" "9.2f 13.2f" "${threads[@]}"
echo "(GB = 10^9 bytes; best of $repeat; $files files x $rows rows, $epochs epochs; fio: JOBS jobs"
echo " replaying the row groups' label and numerical_features chunks in $transfer-byte pieces;"
echo " trainbench: one accelerator, read_threads = io threads = JOBS; notes: bytes and reads)"

[ -n "${BASELINE:-}" ] || exit 0
# ab_run BINARY DATA: "bytes_read cpu_seconds" of one 1-thread pread run.
ab_run() {
  rm -rf "$work/out"
  /usr/bin/time -f "%U %S" -o "$work/cpu" "$1" run "$yaml" "dataset.data_folder=$2" \
    "train.epochs=$epochs" reader.read_threads=1 "reader.transfer_size=$transfer" --io-threads 1 \
    --io-engine pread --accelerators 1 output.folder="$work/out" --no-progress --no-warnings \
    2>/dev/null | grep '^{"trainbench_metrics"' | tail -n 1 >"$work/tb.json"
  /usr/bin/python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["trainbench_metrics"]
print(m["bytes_read"], sum(map(float, open(sys.argv[2]).read().split())))' "$work/tb.json" "$work/cpu"
}
"$BASELINE" datagen "$yaml" "dataset.data_folder=$data.baseline" --no-warnings --no-progress >/dev/null
cat "$data.baseline"/train/* >/dev/null
: >"$work/ab.txt"
for _ in $(seq "${AB_ROUNDS:-15}"); do
  echo "baseline $(ab_run "$BASELINE" "$data.baseline")" >>"$work/ab.txt"
  echo "this $(ab_run "$TB" "$data")" >>"$work/ab.txt"
done
/usr/bin/python3 - "$work/ab.txt" "$epochs" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    who, read, cpu = line.split()
    runs.setdefault(who, []).append((int(read), float(cpu) / int(read) * 1e9))
print(f"\n{'trainbench':<10} {'bytes an epoch':>15} {'CPU ns/B min':>13} {'median':>8}  (1 thread, pread, {len(runs['this'])} runs each, alternating)")
for who in ("baseline", "this"):
    ns = [n for _, n in runs[who]]
    print(f"{who:<10} {runs[who][0][0] // int(sys.argv[2]):>15} {min(ns):>13.4f} {statistics.median(ns):>8.4f}")
b = statistics.median(n for _, n in runs["baseline"])
t = statistics.median(n for _, n in runs["this"])
print(f"this / baseline, median CPU per byte: {t / b:.3f}")
PY
