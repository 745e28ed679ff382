#!/usr/bin/env bash
# What running a job inside `trainbench mix` costs against `trainbench run`: the same
# resnet50_h100 training, many 4 KiB samples from cached files with train.computation_time=0
# (so the run is trainbench's own CPU per sample), as `run -a N` (A) and as the one job of
# `mix --job "workload=resnet50_h100 accelerators=N"` (B), alternating A B A B ... on the same
# files. CPU per sample two ways: the run's summary.json cpu_seconds over its samples (the
# process's CPU over the run's own span; in a mix of one job, that job's threads plus the mix's
# supervisor polling beside it), and the whole process's user+sys from /usr/bin/time over the
# same samples (start-up, the mix's envelope and results included). The goal (the mix issue): a
# job in a mix costs at most 1.1x the CPU per sample of `run`, the median of the pairs' B/A
# ratios of the summary figure; pairs, not medians of each side, so a burst of load on the
# shared box hits both halves of the ratio it spoils.
# Usage: bench/mix_cost.sh [DATA_DIR]  (env: PAIRS=7 EPOCHS=400 ACCELERATORS=8 FILES=2000,
# RUN_ARGS="..." more overrides for both; TRAINBENCH=... for another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-$PWD/build/trainbench}
data=${1:-/tmp/trainbench-bench/mix-cost}
pairs=${PAIRS:-7}
epochs=${EPOCHS:-400}
accelerators=${ACCELERATORS:-8}
files=${FILES:-2000}
extra=(${RUN_ARGS:-})
work=$(mktemp -d /tmp/mix-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
# One 4 KiB sample a file, batch 8: a step of 64 samples over 8 readers, so per-sample work
# (the read, its latency record, the step's bookkeeping) is most of the run, not I/O.
w=(dataset.num_files_train="$files" dataset.num_samples_per_file=1 dataset.record_length_bytes=4096
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$data" reader.batch_size=8
   train.epochs="$epochs" train.computation_time=0 "${extra[@]}")
"$TB" datagen resnet50_h100 "${w[@]}" --no-progress --no-warnings >/dev/null
cat "$data"/train/* >/dev/null
rows=$work/rows
# one LABEL SUMMARY_JSON: "LABEL cpu_us_per_sample process_us_per_sample run_s samples/s
# timeseries_us_per_sample" from the run's summary and /usr/bin/time's "$work/time".
one() {
  /usr/bin/python3 - "$1" "$2" "$work/time" >>"$rows" <<'PY'
import json, sys
label, summary, timing = sys.argv[1:]
s = json.load(open(summary))
samples = 1e6 * s["cpu_seconds"] / s["cpu_us_per_sample"]
user, sys_s = map(float, open(timing).read().split()[-2:])
print(label, s["cpu_us_per_sample"], 1e6 * (user + sys_s) / samples, s["run_seconds"],
      samples / s["run_seconds"], 1e6 * s.get("timeseries_cpu_seconds", 0) / samples)
PY
}
# The load it ran under, and any compiler running beside it (CPU figures then drift more).
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), compilers running: $(pgrep -c -x cc1plus || true);" \
  "$("$TB" --version 2>/dev/null | head -1)"
for p in $(seq "$pairs"); do
  rm -rf "$work/a" "$work/b"
  /usr/bin/time -f "%U %S" -o "$work/time" "$TB" run resnet50_h100 "${w[@]}" \
    output.folder="$work/a" --accelerators "$accelerators" --no-progress >/dev/null 2>&1
  one "$p A" "$(ls -d "$work"/a/*/)summary.json"
  /usr/bin/time -f "%U %S" -o "$work/time" "$TB" mix \
    --job "workload=resnet50_h100 accelerators=$accelerators" "${w[@]}" \
    output.folder="$work/b" --no-progress >/dev/null 2>&1
  # The job's own summary: the folder the mix's summary.json names as its results.
  job=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["jobs"][0]["results"])' \
    "$(ls -d "$work"/b/mix-*/)summary.json")
  one "$p B" "$job/summary.json"
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg), compilers running: $(pgrep -c -x cc1plus || true)"
/usr/bin/python3 - "$rows" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    p, side, *figures = line.split()
    rows.setdefault(p, {})[side] = list(map(float, figures))
print(f"{'pair':>4} {'run CPU us/sample':>17} {'mix':>7} {'B/A':>6}   {'process us/sample':>17} {'mix':>7} {'B/A':>6}"
      f"   {'run s':>6} {'mix':>6}   {'run samples/s':>13} {'mix':>9}")
ratio, process_ratio = [], []
for p, r in rows.items():
    a, b = r["A"], r["B"]
    ratio.append(b[0] / a[0])
    process_ratio.append(b[1] / a[1])
    print(f"{p:>4} {a[0]:>17.3f} {b[0]:>7.3f} {ratio[-1]:>6.3f}   {a[1]:>17.3f} {b[1]:>7.3f} "
          f"{process_ratio[-1]:>6.3f}   {a[2]:>6.2f} {b[2]:>6.2f}   {a[3]:>13.0f} {b[3]:>9.0f}")
def med(side, i):
    return statistics.median(r[side][i] for r in rows.values())
print(f"medians: CPU us/sample run {med('A', 0):.3f}, mix {med('B', 0):.3f}; process us/sample "
      f"run {med('A', 1):.3f}, mix {med('B', 1):.3f}; time-series sampler us/sample run "
      f"{med('A', 4):.4f}, mix {med('B', 4):.4f}")
print(f"B/A of the whole process's CPU per sample: median {statistics.median(process_ratio):.3f} "
      f"(min {min(process_ratio):.3f}, max {max(process_ratio):.3f})")
m = statistics.median(ratio)
print(f"B/A of CPU per sample (summary.json), {len(ratio)} pairs: median {m:.3f} (min "
      f"{min(ratio):.3f}, max {max(ratio):.3f}): {'PASS' if m <= 1.1 else 'FAIL'} (goal <= 1.1)")
PY
