#!/usr/bin/env bash
# How long `trainbench sweep --find-max-accelerators` takes to answer "how many accelerators
# does this storage feed?", against the search a user runs by hand: full-length `trainbench
# run`s at 1, 2, 4, ... accelerators until one fails AU, then bisecting between the last pass
# and the first failure, each a full run (the best a person can do without short probes).
# Same storage, same dataset, same binary, in turn: the suite's S3 gateway (tests/s3/gateway.sh)
# behind tests/s3/fault_proxy.py capped at LIMIT MB/s. Prints both answers, both wall times and
# their ratio.
# Usage: bench/sweep_vs_by_hand.sh GATEWAY_DIR [LIMIT_MB_S]   (GATEWAY_DIR: a running gateway's,
#   e.g. `bash tests/s3/gateway.sh start /tmp/gw`)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=${TRAINBENCH:-$PWD/build/trainbench}
gw=$1 limit=${2:-24}
# shellcheck disable=SC1091
source "$gw/env"
work=$(mktemp -d /tmp/sweep-bench.XXXXXX)
trap 'kill "${proxy:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
bucket=sweep-bench-$$
# shellcheck disable=SC1091
source tests/lib/s3.sh  # s3_curl (a part of the test library)
s3_curl PUT "/$bucket" --fail >/dev/null
/usr/bin/python3 tests/s3/fault_proxy.py --upstream "${S3_TEST_ENDPOINT#http://}" \
  --port-file "$work/port" --rate-mb "$limit" --max-seconds 3600 &
proxy=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
endpoint=http://127.0.0.1:$(cat "$work/port")
# 2 MB/s asked per accelerator: 1 sample of 200 KB per 0.1 s step.
w=(resnet50_h100 dataset.data_folder="s3://$bucket/r50" dataset.num_files_train=800
  dataset.num_samples_per_file=1 dataset.record_length_bytes=200000 dataset.record_length_bytes_stdev=0
  reader.batch_size=1 train.computation_time=0.1 train.epochs=1 output.folder="$work/out")
"$TB" datagen "${w[@]}" storage.storage_options.endpoint_url="$S3_TEST_ENDPOINT" --no-progress >/dev/null
w+=(storage.storage_options.endpoint_url="$endpoint")

start=$(date +%s.%N)
"$TB" sweep "${w[@]}" --find-max-accelerators --max 64 --no-progress >"$work/sweep.out" 2>/dev/null
sweep_s=$(echo "$(date +%s.%N) - $start" | bc)
sweep_n=$(tail -1 "$work/sweep.out" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["trainbench_sweep"]["answer_accelerators"])')

passes() {  # passes N: a full run at N accelerators passes AU
  "$TB" run "${w[@]}" --accelerators "$1" --no-progress >"$work/run.out" 2>/dev/null
  tail -1 "$work/run.out" | /usr/bin/python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["trainbench_metrics"]["passed"] else 1)'
}
start=$(date +%s.%N)
pass=0 fail=0 n=1 runs=0
while [ "$n" -le 64 ]; do
  runs=$((runs + 1))
  if passes "$n"; then pass=$n; n=$((n * 2)); else fail=$n; break; fi
done
while [ "$fail" -gt 0 ] && [ $((fail - pass)) -gt 1 ]; do
  mid=$(((pass + fail) / 2))
  runs=$((runs + 1))
  if passes "$mid"; then pass=$mid; else fail=$mid; fi
done
hand_s=$(echo "$(date +%s.%N) - $start" | bc)
printf "limit %s MB/s, 2 MB/s per accelerator: arithmetic answer %d\n" "$limit" \
  "$(/usr/bin/python3 -c "import math; print(math.floor($limit / 1.8))")"
printf "sweep --find-max-accelerators: answer %d in %.1f s\n" "$sweep_n" "$sweep_s"
printf "by hand (%d full runs):         answer %d in %.1f s\n" "$runs" "$pass" "$hand_s"
printf "ratio (by hand / sweep): %.2f\n" "$(echo "$hand_s / $sweep_s" | bc -l)"
