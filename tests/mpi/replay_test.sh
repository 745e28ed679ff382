#!/usr/bin/env bash
# replay under mpirun: each rank replays its own rank's op-log (ops.rank000r.tsv.zst, as `run
# --op-log` wrote them) and rank 0 sums them: one final line, every read of the run, its bytes;
# timed, the ranks keep one clock.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
"$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >/dev/null 2>&1 || fail "datagen"
mpi_launch 120 -np 2 "$TB" run resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=2 train.epochs=2 train.computation_time=0.02 \
  -a 2 --no-progress --op-log "$WORK/ops.tsv.zst" >r.txt 2>&1 || { cat r.txt; fail "run over 2 ranks"; }
mpi_launch 120 -np 2 "$TB" replay "$WORK/ops.tsv.zst" --no-progress --output "$WORK/res" \
  >replay.out 2>replay.err || { cat replay.out replay.err; fail "replay over 2 ranks"; }
check "one final line (rank 0's)" test "$(grep -c '"trainbench_replay"' replay.out)" = 1
folder=$(json_last_line replay.out 'd["trainbench"]["results"]')
check "both ranks' reads, summed" "$PY" - "$folder/summary.json" "$(results_dir)/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
(get,) = s["ops"]
assert s["ranks"] == 2 and s["complete"] and s["errors"] == 0, s
assert get["replayed"]["count"] == get["original"]["count"] == run["read_latency_ms"]["count"], get
assert get["replayed"]["bytes"] == run["cache"]["bytes_read"], (get, run["cache"])
PY
# Timed over 2 ranks: one clock for both (rank 0's start, offsets from the first op of either
# rank's log), so the job's span is the original's over --speed.
mpi_launch 120 -np 2 "$TB" replay "$WORK/ops.tsv.zst" --mode timed --speed 2 --no-progress \
  >timed.out 2>timed.err || { cat timed.out timed.err; fail "timed replay over 2 ranks"; }
check "timed over 2 ranks: half the original span, within 20%" "$PY" -c '
import json
d = json.loads(open("timed.out").read().strip().splitlines()[-1])["trainbench_replay"]
assert d["ranks"] == 2 and d["original_seconds"] > 0.3, d
assert abs(d["seconds"] - d["original_seconds"] / 2) <= 0.2 * d["original_seconds"] / 2, d'
expect_exit 2 missing.out mpi_launch 60 -np 2 "$TB" replay "$WORK/none.tsv.zst" --no-progress
contains missing.out "each rank replays its own rank's file"
done_ok
