#!/usr/bin/env bash
# The cost of spreading accelerators over ranks: one process driving A accelerators against
# mpirun -np R processes driving A/R each (R = 1, 2, 4 by default), on a page-cached
# resnet50_h100 dataset, in alternating runs (one process, then R ranks, per round) so that
# the shared box's noise falls on both. Reports total samples/s, GB/s, CPU microseconds per
# sample (all ranks' CPU) and each rank's peak RSS, and their ratios to the one process
# (goal: within 5%). The per-step barrier spans the ranks; train.computation_time=0 by
# default makes the run storage-bound, where per-step synchronisation costs most.
# Usage: bench/ranks_scaling.sh [DATA_DIR] [RANKS...]
#        (env: ACCELERATORS (8), FILES (24), EPOCHS (1), ROUNDS (3), BATCH (50), COMPUTE (0))
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-./build/trainbench}
data=${1:-/tmp/trainbench-bench/resnet50}
shift || true
ranks_list=("$@")
[ ${#ranks_list[@]} -gt 0 ] || ranks_list=(1 2 4)
accelerators=${ACCELERATORS:-8}
files=${FILES:-24}
epochs=${EPOCHS:-1}
rounds=${ROUNDS:-3}
batch=${BATCH:-50}
compute=${COMPUTE:-0}
source "$(dirname "$0")/lib/cached_reads.sh"
cached_dataset "$TB" "$data" "$files"
out=/tmp/trainbench-bench/ranks
rm -rf "$out"
mkdir -p "$out"
common=(resnet50_h100 "dataset.num_files_train=$files" "dataset.data_folder=$data"
  "train.epochs=$epochs" "reader.batch_size=$batch" "train.computation_time=$compute" --no-progress)
mpi=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp --bind-to none)

# summary FOLDER: the newest summary.json under FOLDER
summary() { ls -t "$1"/*/summary.json | head -n 1; }

echo "resnet50_h100, $accelerators accelerators in all, batch $batch, compute $compute s," \
  "$files files (page-cached), $epochs epoch(s), $rounds rounds, $(nproc) cores"
for ((round = 1; round <= rounds; round++)); do
  for r in "${ranks_list[@]}"; do
    [ $((accelerators % r)) = 0 ] || { echo "skip $r ranks: $accelerators accelerators do not divide"; continue; }
    "$TB" run "${common[@]}" -a "$accelerators" "output.folder=$out/one-$r-$round" >/dev/null 2>&1
    "${mpi[@]}" -np "$r" "$TB" run "${common[@]}" -a $((accelerators / r)) \
      "output.folder=$out/ranks-$r-$round" >/dev/null 2>&1
  done
done
/usr/bin/python3 - "$out" "$rounds" "${ranks_list[@]}" <<'PY'
import glob, json, os, statistics, sys
out, rounds, ranks = sys.argv[1], int(sys.argv[2]), [int(r) for r in sys.argv[3:]]
def load(folder):
    path = sorted(glob.glob(os.path.join(folder, "*", "summary.json")))[-1]
    d = json.load(open(path))
    rss = [d["peak_rss_bytes"]]
    per_rank = sorted(glob.glob(os.path.join(os.path.dirname(path), "rank-*.json")))
    if per_rank:
        rss = [json.load(open(f))["peak_rss_bytes"] for f in per_rank]
    m = d["metric"]
    return (m["train_throughput_mean_samples_per_second"], m["train_io_mean_MB_per_second"] / 1e3,
            d["cpu_us_per_sample"], max(rss) / 2**20, d["complete"])
print(f"{'ranks':>5} {'samples/s':>10} {'vs 1 proc':>9} {'GB/s':>6} "
      f"{'CPU us/sample':>13} {'vs 1 proc':>9} {'RSS MiB/rank':>12} {'1 proc RSS':>10}")
for r in ranks:
    one = [load(f"{out}/one-{r}-{i}") for i in range(1, rounds + 1) if os.path.isdir(f"{out}/one-{r}-{i}")]
    many = [load(f"{out}/ranks-{r}-{i}") for i in range(1, rounds + 1) if os.path.isdir(f"{out}/ranks-{r}-{i}")]
    if not one or not many:
        continue
    med = lambda rows, k: statistics.median(row[k] for row in rows)
    ok = all(row[4] for row in one + many)
    print(f"{r:>5} {med(many, 0):10.0f} {med(many, 0) / med(one, 0):9.3f} {med(many, 1):6.2f} "
          f"{med(many, 2):13.2f} {med(many, 2) / med(one, 2):9.3f} {med(many, 3):12.1f} {med(one, 3):10.1f}"
          + ("" if ok else "  (a run was incomplete)"))
PY
