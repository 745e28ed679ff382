#!/usr/bin/env bash
# Under mpirun every rank samples its own time series and hands it over in its record:
# rank 0 writes one timeseries.csv with each rank's rows (rank 0, 1) and the job's (rank
# "all": rates and reads summed, the wait share over every accelerator); the rows of each
# rank add up to that rank's reads, and `trainbench report` draws the job's rows.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
"$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >/dev/null 2>&1 || fail "datagen"
mpi_launch 120 -np 2 "$TB" run resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=2 train.epochs=2 \
  train.computation_time=0.02 -a 2 --interval 0.1 --no-progress >r.txt 2>&1 ||
  { cat r.txt; fail "run over 2 ranks"; }
dir=$(results_dir)
$PY - "$dir" <<'PY' || fail "timeseries.csv over ranks"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(f"{d}/summary.json"))
rows = list(csv.DictReader(open(f"{d}/timeseries.csv")))
by = {}
for r in rows:
    by.setdefault(r["rank"], []).append(r)
assert set(by) == {"0", "1", "all"}, set(by)
for rank in ("0", "1"):
    mine = json.load(open(f"{d}/rank-000{rank}.json"))
    assert sum(int(r["reads"]) for r in by[rank]) == mine["read_latency_ms"]["count"], rank
assert sum(int(r["reads"]) for r in by["all"]) == s["read_latency_ms"]["count"]
n = min(len(by["0"]), len(by["1"]))
for k in range(n):
    a, b, m = by["0"][k], by["1"][k], by["all"][k]
    assert int(m["reads"]) == int(a["reads"]) + int(b["reads"]), k
    f = lambda r, c: float(r[c]) * float(r["interval_s"])  # what happened in the interval
    assert abs(f(m, "samples_per_second") - f(a, "samples_per_second") - f(b, "samples_per_second")) < 0.02
    want = (f(a, "accelerators_waiting") + f(b, "accelerators_waiting")) / float(m["interval_s"]) / 4
    assert abs(float(m["data_wait_share"]) - min(1, want)) < 0.002, (k, m, want)
    assert float(m["read_latency_p99_ms"]) == max(float(a["read_latency_p99_ms"]), float(b["read_latency_p99_ms"]))
samples = sum(float(r["samples_per_second"]) * float(r["interval_s"]) for r in by["all"])
want = sum(p["samples"] for p in s["phases"])
assert abs(samples - want) <= 0.02 * want + 2, (samples, want)
print(len(rows), "rows")
PY
checks=$((checks + 1))
done_ok
