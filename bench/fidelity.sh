#!/usr/bin/env bash
# Fidelity study: does the emulation (`run`: an accelerator that sleeps computation_time, a
# loader that reads with the workload's pattern and holds each sample reader.preprocess_time)
# stall when, and as much as, real training (`train`: LibTorch ResNet on the CPU, real JPEG
# decode) on the same storage? And what does `replay --train-results` predict from the op-log
# of a training on fast storage? docs/fidelity.md has the table, its commands and what the
# emulation models and what it does not.
#
#   bash bench/fidelity.sh                        # starts a gateway under WORK, stops it on exit
#   S3_GATEWAY_DIR=/tmp/gw bash bench/fidelity.sh # or uses a running one (tests/s3/gateway.sh)
#
# The workload: IMAGES JPEGs of SIDE x SIDE (grayscale noise, as `datagen` writes DLIO's jpeg
# format; ~0.6 bytes a pixel at quality 75), in trainbench's/DLIO's layout, once in a local
# folder and once in a bucket of the suite's S3 gateway (the same bytes: the same seed). The
# model is scaled to this box: MODEL at SIZE px, batch BATCH, THREADS LibTorch threads and
# WORKERS decode workers (1 + 1: decode and compute do not fight for a 2-core host's cores),
# each with IO_DEPTH image reads in flight (train --io-depth; 1: PyTorch's DataLoader, a worker
# reads, then decodes, then reads the next image, which is what DLIO's read_threads model).
# Calibration, on this host:
#   - computation_time: `train --calibrate`, with the loader reading the local folder beside the
#     steps (CALIBRATE_DATA=1, the default: each step less its data wait, so the figure carries
#     the decode worker's CPU; 0: synthetic batches, compute alone; point: at each point the
#     loader reads that point's storage, so the figure also carries the storage client's CPU
#     and, on this loopback setup, the gateway's and the proxy's), twice before
#     the points (the lower sets the demand, hence the caps) and again right before each
#     round's training at each point (CALIBRATE_EACH=1, the default): on a shared box the
#     CPU's speed drifts with the load by tens of % within minutes, and a calibration taken
#     minutes earlier would measure the load, not the emulation. CALIBRATE_EACH=0: every
#     round of every point emulates with the figure of the start (and its drift is judged
#     the same way);
#   - reader.preprocess_time (+ _stdev): the loader's per-image work (decode the crop's region,
#     RandomResizedCrop, flip, to bytes) timed over the dataset's own files on one core
#     (trainbench_decode_bench ... bytes: the TrainTransform the loader runs), as
#     1 / images per second; the stdev from PREPROCESS_ROUNDS rounds.
# The demand is BATCH x mean file size / computation_time. Each SPEEDS entry is a point:
#   local      the local folder (page cache: far faster than the demand);
#   s3         the gateway, uncapped;
#   F          the gateway behind tests/s3/fault_proxy.py --rate-mb F x demand (every body,
#              all connections together, at most that many MB/s).
# At each point, one after another (load hits them alike):
#   real       train --data (the folder or s3://) : images/s, data-wait share;
#   emulated   run, the same batch, read_threads = WORKERS x IO_DEPTH (reads in flight),
#              prefetch_size = 2 x WORKERS (the loader's depth), the same files,
#              computation_time and preprocess_time as calibrated: samples/s, 100 - AU;
#   emulated*  the same emulation with computation_time = the real run's own compute per step
#              (its step less its data wait): the data path alone, without the calibration's
#              drift with the box's load;
#   predicted  replay of the local training's op-log against that storage with
#              --train-results, at the loader's reads in flight: images/s and the lost
#              share of the predicted step;
#   predicted* the same replay given this point's real training as --train-results (its
#              compute per step): the loader model alone, as emulated* is the data path's.
# REPEAT (1) rounds of calibrate, real, emulated and emulated* at each point, alternating; the
# row holds each figure's median over the rounds (and every round in rows.jsonl's "rounds"):
# on a shared VM two timings of the same compute seconds apart differ by up to 10%, and
# where compute sets the pace that is the whole of the emulation's error in one round.
# Drift: each round compares its calibration (computation_time, timed just before) with the
# real training's own compute per step (its mean step less its mean data wait, the figure
# calibrate times). Apart by more than DRIFT_BOUND (5, %: the study's bound; where compute
# sets the pace the calibrated emulation's images/s error is that gap itself, so a round
# whose calibration missed the real compute by more than the bound cannot be judged against
# it) the round has drifted: the host's speed moved between the two timings. A drifted round
# is set aside (no emulation run; kept in rows.jsonl's "retried") and run again while the
# point has DRIFT_RETRIES (REPEAT) left; with none left it is kept, drifted. The calibrated
# emulation's figures and errors are the medians over the rounds that held; a point with
# none is "not judged: host drift X%, Y%" (each kept round's drift). real, emulated* and
# predicted* are every kept round's (none of them takes the calibration). RETRY_DEADLINE
# bounds the retries in time: past it a drifted try is kept as if no retry were left.
# Errors: emulated and predicted images/s against real (%), stall share in points.
#   storage    run with no compute and no preprocessing over the first SPEED_PROBE_FILES
#              files, at the same reads in flight: the MB/s this storage gives the loader,
#              the page's x axis.
# Output in WORK: fidelity.csv, fidelity.md (one table, with the calibration, the date and the
# load), and report/fidelity-<started>/ (results of kind "fidelity", bench/lib/fidelity_summary.py:
# `trainbench report` draws images/s and the stall share of each path against the storage's
# MB/s, and each path's error; report.html beside it).
#
# Env: REPEAT (1), DRIFT_BOUND (5), DRIFT_RETRIES (REPEAT), RETRY_DEADLINE (none: seconds since
# the study's start after which a drifted try is kept rather than retried, so that a study
# with a time limit, the suite's, ends in it on a slow host), CALIBRATE_EACH (1), CALIBRATE_STEPS
# (train --calibrate's own, 20: steps timed in each calibration), CALIBRATE_WARMUP (WARMUP), CALIBRATE_DATA (1), IMAGES (512), SIDE (338), BATCH (8), MODEL (resnet18), SIZE (64), THREADS (1),
# WORKERS (1), IO_DEPTH (1), WARMUP (0), EPOCHS (1), SPEEDS ("local s3 1 0.5 0.25"), PREPROCESS_ROUNDS (3),
# SPEED_PROBE_FILES (64),
# TRAINBENCH (build/trainbench), DECODE_BENCH (build/bench/trainbench_decode_bench),
# WORK (/tmp/trainbench-fidelity), S3_GATEWAY_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TB=$(realpath "${TRAINBENCH:-build/trainbench}")
DECODE=$(realpath "${DECODE_BENCH:-build/bench/trainbench_decode_bench}")
PY=/usr/bin/python3
images=${IMAGES:-512}
side=${SIDE:-338}
batch=${BATCH:-8}
model=${MODEL:-resnet18}
size=${SIZE:-64}
threads=${THREADS:-1}
workers=${WORKERS:-1}
io_depth=${IO_DEPTH:-1}
# No warm-up, and the emulation's AU over every step (metric.exclude_start_steps 0): both
# windows start with nothing read. A warm-up lets the real loader fill its queue before the
# timed steps (2 x WORKERS batches come free: 32 images at half the demand measured 13% over
# the emulation), and leaving the first step out of AU drops its wait from the stall.
warmup=${WARMUP:-0}
calibrate_warmup=${CALIBRATE_WARMUP:-$warmup}
[[ $warmup =~ ^[0-9]+$ && $calibrate_warmup =~ ^[0-9]+$ ]] ||
  { echo "fidelity: WARMUP=$warmup, CALIBRATE_WARMUP=$calibrate_warmup: give counts of steps, 0 or more" >&2; exit 2; }
epochs=${EPOCHS:-1}
read -r -a speeds <<<"${SPEEDS:-local s3 1 0.5 0.25}"
rounds=${PREPROCESS_ROUNDS:-3}
calibrate_each=${CALIBRATE_EACH:-1}
repeat=${REPEAT:-1}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "fidelity: REPEAT=$repeat: give a count of rounds, 1 or more" >&2; exit 2; }
drift_bound=${DRIFT_BOUND:-5}
[[ $drift_bound =~ ^(0|[1-9][0-9]*)([.][0-9]+)?$ && $drift_bound =~ [1-9] ]] ||
  { echo "fidelity: DRIFT_BOUND=$drift_bound: give a bound in %, over 0 (e.g. 5)" >&2; exit 2; }
drift_retries=${DRIFT_RETRIES:-$repeat}
[[ $drift_retries =~ ^[0-9]+$ ]] || { echo "fidelity: DRIFT_RETRIES=$drift_retries: give a count of extra rounds, 0 or more" >&2; exit 2; }
retry_deadline=${RETRY_DEADLINE:-}
[[ -z $retry_deadline || $retry_deadline =~ ^[1-9][0-9]*$ ]] ||
  { echo "fidelity: RETRY_DEADLINE=$retry_deadline: give seconds since the study's start, 1 or more" >&2; exit 2; }
calibrate_data=${CALIBRATE_DATA:-1}
calibrate_steps=()
[ -z "${CALIBRATE_STEPS:-}" ] || calibrate_steps=(--steps-per-epoch "$CALIBRATE_STEPS")
[[ ${CALIBRATE_STEPS:-20} =~ ^[1-9][0-9]*$ ]] || { echo "fidelity: CALIBRATE_STEPS=$CALIBRATE_STEPS: give a count of steps, 1 or more" >&2; exit 2; }
probe_files=${SPEED_PROBE_FILES:-64}
[ "$probe_files" -le "$images" ] || probe_files=$images
started=$(date -u +%Y%m%dT%H%M%SZ)
W=${WORK:-/tmp/trainbench-fidelity}
steps=$((images / batch))
prefetch=$((2 * workers))  # train's loader: two batches per worker (PyTorch's prefetch_factor)
in_flight=$((workers * (io_depth < batch ? io_depth : batch)))  # a worker's reads stay in its batch
[ -x "$TB" ] || { echo "fidelity: no trainbench at $TB (build it first)" >&2; exit 1; }
[ -x "$DECODE" ] || { echo "fidelity: no $DECODE (cmake --build build --target trainbench_decode_bench)" >&2; exit 1; }
rm -rf "$W/points" "$W/report"
mkdir -p "$W/points"
log() { echo "fidelity: [${SECONDS}s] $*" >&2; }
load() { cut -d' ' -f1 /proc/loadavg; }

source "$ROOT/tests/lib/s3.sh"  # s3_curl (a part of the test library)
source "$ROOT/bench/lib/s3_gateway.sh"
bench_gateway fidelity "$W"
bucket=trainbench-fidelity-$$
s3_curl PUT "/$bucket" >/dev/null
proxy_pid=
cleanup() {
  [ -z "$proxy_pid" ] || kill "$proxy_pid" 2>/dev/null || true
  s3_curl GET "/$bucket?list-type=2&max-keys=1000" 2>/dev/null | grep -o '<Key>[^<]*</Key>' |
    sed 's:<Key>\(.*\)</Key>:\1:' | while read -r key; do
      s3_curl DELETE "/$bucket/$key" >/dev/null 2>&1 || true
    done
  s3_curl DELETE "/$bucket" >/dev/null 2>&1 || true
  [ -z "$bench_started_gw" ] || bash "$ROOT/tests/s3/gateway.sh" stop "$bench_started_gw" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# The workload: DLIO's keys, the same for datagen and run.
cat >"$W/fidelity.yaml" <<EOF
model:
  name: ${model}_fidelity
framework: pytorch
workflow:
  train: true
dataset:
  format: jpeg
  num_files_train: $images
  num_samples_per_file: 1
  record_length_bytes: $((side * side))
  record_length_bytes_stdev: 0
  data_folder: $W/data
reader:
  batch_size: $batch
  read_threads: $in_flight
  prefetch_size: $prefetch
  file_shuffle: seed
  sample_shuffle: seed
train:
  epochs: $epochs
  seed: 1
metric:
  exclude_start_steps: 0
output:
  folder: $W/points/run
EOF
s3ds=(dataset.data_folder="s3://$bucket/fid" storage.storage_options.s3_force_path_style=true)
s3at() { echo storage.storage_options.endpoint_url="$1"; }

log "datagen: $images JPEGs of ${side}x$side, local and s3://$bucket/fid"
[ -f "$W/data/trainbench_manifest.json" ] || "$TB" datagen "$W/fidelity.yaml" --no-progress >/dev/null
"$TB" datagen "$W/fidelity.yaml" "${s3ds[@]}" "$(s3at "$S3_TEST_ENDPOINT")" --no-progress >/dev/null
# The same bytes in both places: a few objects' hashes.
for f in $(ls "$W/data/train" | head -n 3); do
  s3_curl GET "/$bucket/fid/train/$f" -o "$W/object"
  cmp -s "$W/object" "$W/data/train/$f" || { echo "fidelity: s3://$bucket/fid/train/$f differs from the local file" >&2; exit 1; }
done
mean_bytes=$($PY -c "import os,sys; d=sys.argv[1]; s=[os.path.getsize(os.path.join(d,f)) for f in os.listdir(d)]; print(sum(s)/len(s))" "$W/data/train")

# calibrate [DATA ARGS...]: train --calibrate's computation_time for this workload on this
# host, now, beside the loader reading the local folder (CALIBRATE_DATA=1), the point's
# storage given as train's --data arguments (CALIBRATE_DATA=point), or nothing (0). Its
# window starts as the real training's does (--warmup-steps CALIBRATE_WARMUP, by default
# WARMUP: the first, cold step counted in both; in a 12-step training here it took 253 ms
# against a p50 of 199 ms). With calibrate's own 5 uncounted warm-up steps, 8-step trainings
# on the local folder computed 2-19% over their calibrations in six rounds out of six
# (2026-11-29 05:02-05:09 UTC, load 1-1.4); with the same window, -23% to +18%, median +1.5%.
calibrate() {
  local beside=()
  case $calibrate_data in
    0) ;;
    point) [ $# -gt 0 ] && beside=("$@" --workers "$workers" --io-depth "$io_depth") ||
             beside=(--data "$W/data" --workers "$workers") ;;
    *) beside=(--data "$W/data" --workers "$workers") ;;
  esac
  "$TB" train --calibrate "$W/fidelity.yaml" --allow-cpu --device cpu --model "$model" \
    --image-size "$size" --threads "$threads" "${beside[@]}" "${calibrate_steps[@]}" --warmup-steps "$calibrate_warmup" \
    --no-progress >"$W/calibrate.out" 2>&1 ||
    { cat "$W/calibrate.out" >&2; exit 1; }
  sed -n 's/^train.computation_time=//p' "$W/calibrate.out" | tail -n 1
}
log "calibrating compute (train --calibrate) and preprocessing (decode bench, $rounds rounds)"
# The lower of two: a burst of load during one would set the demand, and so every cap, too low.
compute=$(calibrate)
second=$(calibrate)
compute=$($PY -c "print(min($compute, $second))")
for r in $(seq "$rounds"); do
  "$DECODE" "$W/data/train" "$size" 2 dct bytes | tail -n 1
done >"$W/decode.jsonl"
read -r preprocess preprocess_stdev < <($PY - "$W/decode.jsonl" <<'PY'
import json, statistics, sys
t = [1 / json.loads(l)["images_per_second"] for l in open(sys.argv[1])]
print(f"{statistics.mean(t):.6f} {statistics.stdev(t) if len(t) > 1 else 0:.6f}")
PY
)
demand_mb=$($PY -c "print($batch * $mean_bytes / $compute / 1e6)")
log "computation_time $compute s, preprocess_time $preprocess s (stdev $preprocess_stdev), demand $demand_mb MB/s ($(load) load)"

train_args=(--allow-cpu --device cpu --model "$model" --image-size "$size" --batch-size "$batch"
  --threads "$threads" --workers "$workers" --io-depth "$io_depth" --warmup-steps "$warmup" --steps-per-epoch "$steps"
  --epochs "$epochs" --seed 1 --no-progress --output "$W/points/train")
run_args=("$W/fidelity.yaml" "reader.preprocess_time=$preprocess"
  "reader.preprocess_time_stdev=$preprocess_stdev" --accelerators 1 --no-progress --no-warnings)

# The training on the local folder first: its op-log and results are what every point's
# prediction replays.
local_oplog=$W/points/train-local.tsv.zst
"$TB" train "${train_args[@]}" --data "$W/data" --op-log "$local_oplog" >"$W/points/real-local-oplog.out" 2>&1 ||
  { cat "$W/points/real-local-oplog.out" >&2; exit 1; }
local_results=$($PY -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["trainbench"]["results"])' "$W/points/real-local-oplog.out")

start_proxy() {  # start_proxy MB_PER_S: the proxy in front of the gateway; sets proxy_ep
  rm -f "$W/proxy.port"
  $PY "$ROOT/tests/s3/fault_proxy.py" --upstream "${S3_TEST_ENDPOINT#http://}" --port-file "$W/proxy.port" \
    --stats "$W/points/proxy-$1.json" --max-seconds 3600 --rate-mb "$1" &
  proxy_pid=$!
  for _ in $(seq 100); do [ -s "$W/proxy.port" ] && break; sleep 0.1; done
  [ -s "$W/proxy.port" ] || { echo "fidelity: fault_proxy.py did not start" >&2; exit 1; }
  proxy_ep=http://127.0.0.1:$(cat "$W/proxy.port")
}
stop_proxy() {
  [ -z "$proxy_pid" ] || { kill "$proxy_pid" 2>/dev/null || true; wait "$proxy_pid" 2>/dev/null || true; }
  proxy_pid=
}

# The table (CSV and markdown) and the study's results folder (kind "fidelity",
# report/fidelity-<started>/) for `trainbench report`: bench/lib/fidelity_summary.py, after
# each point (incomplete until the last), so a study stopped midway keeps what it measured.
study=$($PY - <<PY
import json
print(json.dumps({
    "shape": "$images x ${side}x$side JPEGs, $model at ${size}px, batch $batch, $threads thread(s) + $workers worker(s) x $io_depth read(s) in flight",
    "compute_s": $compute, "preprocess_s": $preprocess, "preprocess_stdev_s": $preprocess_stdev,
    "demand_MB_per_second": $demand_mb, "mean_file_bytes": $mean_bytes,
    "calibration": "$(case $calibrate_data in 0) echo "train --calibrate, synthetic batches" ;; point) echo "train --calibrate --data beside the loader reading each point's storage" ;; *) echo "train --calibrate --data beside the loader reading the local folder" ;; esac)",
    "trainbench": "$TB", "started": "$started", "bound_percent": 5,
    "drift_bound_percent": $drift_bound,
    "config": {"images": $images, "side": $side, "model": "$model", "image_size": $size,
               "batch_size": $batch, "threads": $threads, "workers": $workers,
               "io_depth": $io_depth, "reads_in_flight": $in_flight, "prefetch": $prefetch,
               "warmup_steps": $warmup, "epochs": $epochs, "speeds": "${speeds[*]}",
               "calibrate_each": $calibrate_each, "calibrate_data": "$calibrate_data",
               "calibrate_steps": ${CALIBRATE_STEPS:-20}, "calibrate_warmup": $calibrate_warmup,
               "repeat": $repeat, "drift_bound_percent": $drift_bound,
               "drift_retries": $drift_retries, "retry_deadline_s": ${retry_deadline:-None},
               "speed_probe_files": $probe_files}}))
PY
)
printf '%s\n' "$study" >"$W/study.json"
: >"$W/points/rows.jsonl"
for speed in "${speeds[@]}"; do
  cap=0
  case $speed in
    local)
      real_data=(--data "$W/data")
      emu=()
      target=(--target "$W/data") ;;
    s3)
      real_data=(--data "s3://$bucket/fid" --s3-option "endpoint_url=$S3_TEST_ENDPOINT" --s3-option s3_force_path_style=true)
      emu=("${s3ds[@]}" "$(s3at "$S3_TEST_ENDPOINT")")
      target=(--target "s3://$bucket/fid" --s3-option "endpoint_url=$S3_TEST_ENDPOINT" --s3-option s3_force_path_style=true) ;;
    *)
      cap=$($PY -c "print(round($speed * $demand_mb, 3))")
      start_proxy "$cap"
      real_data=(--data "s3://$bucket/fid" --s3-option "endpoint_url=$proxy_ep" --s3-option s3_force_path_style=true)
      emu=("${s3ds[@]}" "$(s3at "$proxy_ep")")
      target=(--target "s3://$bucket/fid" --s3-option "endpoint_url=$proxy_ep" --s3-option s3_force_path_style=true) ;;
  esac
  # REPEAT rounds of calibrate, real, emulated, emulated*, one after another: each
  # emulation takes the calibration made just before its training, and the row holds the
  # medians of the rounds. A compute-bound row compares two timings of the same compute, and
  # on a shared VM one 10 s timing differs from the next by up to 10%; the median of a few
  # alternating rounds does not follow one slow or fast spell.
  # Drift: once the round's training is done, its own compute per step (step less data wait)
  # is set against the calibration. Apart by more than DRIFT_BOUND %, the host's speed moved
  # between the two timings: while this point has DRIFT_RETRIES left, the try is set aside
  # (its calibration and training kept in rows.jsonl's "retried", no emulation run) and the
  # round is run again; with none left it is kept, drifted, and emulated like the others.
  # The files of each try are named by its number (calibrated-SPEED.T, real-SPEED.T.out, ...).
  t=0 retries_left=$drift_retries kept=()
  rm -f "$W"/points/*-"$speed".[0-9]*.out "$W"/points/{calibrated,decided}-"$speed".[0-9]*
  while [ "${#kept[@]}" -lt "$repeat" ]; do
    t=$((t + 1))
    k=$((${#kept[@]} + 1))
    point_compute=$compute
    [ "$calibrate_each" = 0 ] || point_compute=$(calibrate "${real_data[@]}")
    echo "$point_compute" >"$W/points/calibrated-$speed.$t"
    [ "$t" -gt 1 ] || load0=$(load)
    log "point $speed (cap $cap MB/s), round $k of $repeat, try $t (computation_time $point_compute s, load $(load)): real"
    "$TB" train "${train_args[@]}" "${real_data[@]}" >"$W/points/real-$speed.$t.out" 2>&1 ||
      { cat "$W/points/real-$speed.$t.out" >&2; exit 1; }
    real_compute=$($PY -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[-1]); r=d["radix_metrics"]
print(r["batch_size"] / r["images_per_second"] * (1 - d["trainbench"]["data_wait_share"]))' "$W/points/real-$speed.$t.out")
    # The test the rows apply too (rows.jsonl: drift_percent, drifted).
    drift=$($PY -c "print(f'{100 * ($real_compute / $point_compute - 1):+.1f}')")
    said="real compute $real_compute s against the calibrated $point_compute s ($drift%"
    now=$SECONDS  # the moment of the decision, kept for rows.jsonl (decided_at_s)
    echo "$now" >"$W/points/decided-$speed.$t"
    if $PY -c "import sys; sys.exit(abs($real_compute / $point_compute - 1) * 100 > $drift_bound)"; then
      log "point $speed, round $k held: $said, bound $drift_bound%)"
    elif [ "$retries_left" -gt 0 ] && { [ -z "$retry_deadline" ] || [ "$now" -lt "$retry_deadline" ]; }; then
      retries_left=$((retries_left - 1))
      log "point $speed, round $k drifted: $said, over the $drift_bound% bound): the host's speed moved; set aside, run again ($retries_left retries left)"
      continue
    else
      log "point $speed, round $k drifted: $said, over the $drift_bound% bound), $([ "$retries_left" -gt 0 ] && echo "past RETRY_DEADLINE ($now of $retry_deadline s)" || echo "no retries left"): kept, its calibrated emulation not judged"
    fi
    kept+=("$t")
    log "point $speed, round $k: emulated"
    "$TB" run "${run_args[@]}" "train.computation_time=$point_compute" "${emu[@]}" >"$W/points/emulated-$speed.$t.out" 2>&1 ||
      { cat "$W/points/emulated-$speed.$t.out" >&2; exit 1; }
    log "point $speed, round $k: emulated with the real run's compute ($real_compute s)"
    "$TB" run "${run_args[@]}" "train.computation_time=$real_compute" "${emu[@]}" >"$W/points/emulated_real-$speed.$t.out" 2>&1 ||
      { cat "$W/points/emulated_real-$speed.$t.out" >&2; exit 1; }
  done
  # The storage's speed for the page's axis: what `run` reads from it at the loader's reads in
  # flight with no compute and no preprocessing, over the first SPEED_PROBE_FILES files.
  log "point $speed: storage speed (run, no compute, $probe_files files)"
  "$TB" run "${run_args[@]}" train.computation_time=0 reader.preprocess_time=0 reader.preprocess_time_stdev=0 \
    "dataset.num_files_train=$probe_files" "${emu[@]}" >"$W/points/speed-$speed.out" 2>&1 ||
    { cat "$W/points/speed-$speed.out" >&2; exit 1; }
  log "point $speed: predicted"
  "$TB" replay "$local_oplog" "${target[@]}" --train-results "$local_results" --no-progress --concurrency "$in_flight" \
    --output "$W/points/replay" >"$W/points/predicted-$speed.out" 2>&1 ||
    { cat "$W/points/predicted-$speed.out" >&2; exit 1; }
  # predicted* replays once, given the round whose real images/s is the median (the lower
  # of the two middle ones for an even REPEAT).
  median_round=$($PY -c '
import json, sys
rate = lambda f: json.loads(open(f).read().splitlines()[-1])["radix_metrics"]["images_per_second"]
files = sorted(sys.argv[1:], key=rate)
print(files[(len(files) - 1) // 2])' $(for t in "${kept[@]}"; do echo "$W/points/real-$speed.$t.out"; done))
  log "point $speed: predicted with the real run's compute ($(basename "$median_round"))"
  real_results=$($PY -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["trainbench"]["results"])' "$median_round")
  "$TB" replay "$local_oplog" "${target[@]}" --train-results "$real_results" --no-progress --concurrency "$in_flight" \
    --output "$W/points/replay" >"$W/points/predicted_real-$speed.out" 2>&1 ||
    { cat "$W/points/predicted_real-$speed.out" >&2; exit 1; }
  stop_proxy
  $PY - "$W/points" "$speed" "$cap" "$load0" "$(load)" "$t" "$drift_bound" "${kept[*]}" >>"$W/points/rows.jsonl" <<'PY'
import json, statistics, sys
d, speed, cap, load0, load1, tries, bound, kept = sys.argv[1:]
kept = [int(k) for k in kept.split()]
last = lambda f: json.loads(open(f"{d}/{f}.out").read().splitlines()[-1])


def compute_of(real):  # the real training's compute per step, ms: its step less its data wait
    r = real["radix_metrics"]
    return 1e3 * r["batch_size"] / r["images_per_second"] * (1 - real["trainbench"]["data_wait_share"])


def drift_of(x):  # the real compute against the calibration, % of the calibration
    x["drift_percent"] = 100 * (x["real_compute_ms"] / x["calibrated_compute_ms"] - 1)
    x["drifted"] = abs(x["drift_percent"]) > float(bound)
    return x


calibrated_of = lambda k: 1e3 * float(open(f"{d}/calibrated-{speed}.{k}").read())
decided_at = lambda k: int(open(f"{d}/decided-{speed}.{k}").read())  # s since the study began
# The tries set aside (drifted while retries were left): their calibration and training.
retried = [drift_of({"try": k, "decided_at_s": decided_at(k), "calibrated_compute_ms": calibrated_of(k),
                     "real_compute_ms": compute_of(last(f"real-{speed}.{k}")),
                     "real_results": last(f"real-{speed}.{k}")["trainbench"]["results"]})
           for k in range(1, int(tries) + 1) if k not in kept]
rounds = []
for k in kept:
    real, emu, emu_real = (last(f"{p}-{speed}.{k}") for p in ("real", "emulated", "emulated_real"))
    assert real["trainbench"].get("bad_images", 0) == 0, "images that did not decode: " + str(real)
    r, m, mr = real["radix_metrics"], emu["trainbench_metrics"], emu_real["trainbench_metrics"]
    rounds.append({
        "try": k, "decided_at_s": decided_at(k),
        "calibrated_compute_ms": calibrated_of(k),
        "real_images_per_second": r["images_per_second"],
        "real_stall_percent": 100 * real["trainbench"]["data_wait_share"],
        "real_step_p50_ms": real["trainbench"]["step_time_p50_ms"],
        # What a step computed, the rest of the step having waited for data: against the
        # calibrated computation_time it shows what the host's load (the decode worker, the
        # gateway and the proxy on the same cores) did to the compute.
        "real_compute_ms": compute_of(real),
        "real_results": real["trainbench"]["results"],
        "emulated_samples_per_second": m["samples_per_second"],
        "emulated_stall_percent": 100 - m["au_percentage"],
        "emulated_MB_per_second": m["io_mb_per_second"],
        "emulated_results": emu["trainbench"]["results"],
        "emulated_real_samples_per_second": mr["samples_per_second"],
        "emulated_real_stall_percent": 100 - mr["au_percentage"],
        "emulated_real_results": emu_real["trainbench"]["results"],
    })
    drift_of(rounds[-1])
# Each figure is its median over the rounds (the calibrated emulation's over the rounds that
# held, when one did); each results folder is the median round's training's (and that
# round's emulations').
held = [r for r in rounds if not r["drifted"]]
calibrated = ("emulated_samples_per_second", "emulated_stall_percent", "emulated_MB_per_second")
row = {k: statistics.median(r[k] for r in ((held or rounds) if k in calibrated else rounds))
       for k in rounds[0] if not k.endswith("_results") and k not in ("drifted", "drift_percent", "try", "decided_at_s")}
median_of = lambda rs: sorted(rs, key=lambda r: r["real_images_per_second"])[(len(rs) - 1) // 2]
middle = median_of(rounds)
row.update({k: v for k, v in middle.items() if k.endswith("_results")})
row["emulated_results"] = median_of(held or rounds)["emulated_results"]
row.update({
    "drift_bound_percent": float(bound), "judged": bool(held), "judged_rounds": len(held),
    "drifted_rounds": len(rounds) - len(held), "tries": int(tries), "retried": retried,
    "calibration_drift_percent": statistics.median(r["drift_percent"] for r in rounds),
})
pred, pred_real = last(f"predicted-{speed}"), last(f"predicted_real-{speed}")
t = json.load(open(pred["trainbench"]["results"] + "/summary.json"))["training"]
t_real = json.load(open(pred_real["trainbench"]["results"] + "/summary.json"))["training"]
row.update({
    "speed": speed, "cap_MB_per_second": float(cap), "load_before": float(load0), "load_after": float(load1),
    "repeat": len(rounds), "rounds": rounds,
    "storage_MB_per_second": last(f"speed-{speed}")["trainbench_metrics"]["io_mb_per_second"],
    "predicted_images_per_second": t["predicted_images_per_second_per_process"],
    "predicted_stall_percent": 100 * t["io_lost_s_per_step"] / t["predicted_step_s"],
    "predicted_results": pred["trainbench"]["results"],
    "predicted_real_images_per_second": t_real["predicted_images_per_second_per_process"],
    "predicted_real_stall_percent": 100 * t_real["io_lost_s_per_step"] / t_real["predicted_step_s"],
    "predicted_real_results": pred_real["trainbench"]["results"],
})
print(json.dumps(row))
PY
  $PY "$ROOT/bench/lib/fidelity_summary.py" "$W" "$study" partial >/dev/null
done

$PY "$ROOT/bench/lib/fidelity_summary.py" "$W" "$study" complete
folder=$W/report/fidelity-$started
"$TB" report "$folder" >/dev/null 2>&1 || log "trainbench report could not draw $folder"
log "table: $W/fidelity.csv, $W/fidelity.md; page: $folder/report.html"
