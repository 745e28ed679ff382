#!/usr/bin/env bash
# S3 reads on the loopback Ceph RADOS Gateway: `trainbench run` against s3dlio (MLPerf Storage
# v3.0's S3 library, through its Python API) and rclone, reading the same objects with the same
# concurrency, in one run, one table.
#
#   bash bench/s3_read_vs_s3dlio.sh                 # starts a gateway under WORK, stops it on exit
#   S3_GATEWAY_DIR=/tmp/gw bash bench/s3_read_vs_s3dlio.sh   # or uses a running one
#
# The objects, written once by trainbench datagen: SMALL_OBJECTS npy objects of one
# resnet50_h100 sample each (record_length_bytes 114660, ~112 KiB, plus npy's 128-byte header)
# and LARGE_OBJECTS of LARGE_BYTES (64 MiB). Each tool is one process that reads every object
# of a set whole PASSES times, with CONCURRENCY requests (objects) in flight:
#  - trainbench: `run` with computation_time 0, one accelerator, read_threads C, one reader
#    loop with io_depth C, train.epochs PASSES: the emulated training's get phase, the path a
#    user measures storage with (docs/s3.md: one ranged GET a sample, here the whole object but
#    npy's header; a 64 MiB object is read in storage_options.range_size pieces, 8 MiB, and
#    io_depth counts pieces);
#  - s3dlio: `s3dlio.get_many(uris, max_in_flight=C)` PASSES times (bench/s3dlio_read.py), its
#    defaults: it HEADs every object once per process, and splits an object of 32 MiB or more
#    into concurrent 4 MiB range GETs (4 at a time per object on this 2-core box); and again
#    with S3DLIO_ENABLE_RANGE_OPTIMIZATION=0 ("s3dlio nohead": no HEADs, one GET an object
#    whatever its size);
#  - rclone: `rclone copy --transfers C --checkers C` PASSES times into a fresh folder on tmpfs
#    (/dev/shm), --ignore-checksum (the others check no MD5 either), --no-check-dest.
# Per run: wall time and CPU (user + sys) of the whole process (/usr/bin/time: start-up,
# listing and HEADs included), MB/s = bytes the tool received / wall time; "read MB/s" is the
# read phase alone where the tool says it (trainbench: its bytes over its epochs' time; s3dlio:
# timed around get_many); "gw CPU" is radosgw + ceph-osd CPU during the run (they share the 2
# cores with the client). REPEAT rounds, the tools alternating; each column is its median.
# The host is shared: before each run the bench waits (up to QUIET_WAIT seconds) until no
# compiler (cc1plus) runs, counts the runs it could not wait for, and prints the range of the
# load average at the runs' starts (other engineers' tests load it too).
#
# Ratios: what it costs s3dlio and why, docs/benchmarks.md ("S3 reads against s3dlio and rclone").
# Env: SMALL_OBJECTS (1024), LARGE_OBJECTS (6), LARGE_BYTES (67108864), CONCURRENCY (8),
# REPEAT (3), PASSES (3), QUIET_WAIT (300), TRAINBENCH (build/trainbench), PYPI_PY (.venv/bin/python,
# with s3dlio: scripts/setup_python.sh), WORK (/tmp/trainbench-s3dlio), S3_GATEWAY_DIR.
# The gateway's memstore holds 1 GiB: the defaults write ~500 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TB=$(realpath "${TRAINBENCH:-build/trainbench}")
PY=/usr/bin/python3
PYPI_PY=${PYPI_PY:-$ROOT/.venv/bin/python}
small_objects=${SMALL_OBJECTS:-1024}
large_objects=${LARGE_OBJECTS:-6}
large_bytes=${LARGE_BYTES:-67108864}
c=${CONCURRENCY:-8}
repeat=${REPEAT:-3}
passes=${PASSES:-3}
quiet_wait=${QUIET_WAIT:-300}
W=${WORK:-/tmp/trainbench-s3dlio}
SHM=/dev/shm/trainbench-s3dlio-$$
bucket=trainbench-s3dlio
[ -x "$TB" ] || { echo "s3_read_vs_s3dlio: no trainbench at $TB (build it first)" >&2; exit 1; }
"$PYPI_PY" -c 'import s3dlio' 2>/dev/null ||
  { echo "s3_read_vs_s3dlio: no s3dlio in $PYPI_PY (bash scripts/setup_python.sh)" >&2; exit 1; }
command -v rclone >/dev/null || { echo "s3_read_vs_s3dlio: no rclone (scripts/setup.sh installs it)" >&2; exit 1; }
mkdir -p "$W"

source "$ROOT/tests/lib/s3.sh"  # s3_curl
source "$ROOT/bench/lib/s3_gateway.sh"
bench_gateway s3_read_vs_s3dlio "$W"
# bench_gateway's EXIT trap stops the gateway it started; ours also removes the tmpfs copies.
trap 'rm -rf "$SHM"; [ -z "$bench_started_gw" ] || bash "$ROOT/tests/s3/gateway.sh" stop "$bench_started_gw" >/dev/null 2>&1 || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
s3_curl PUT "/$bucket" >/dev/null

# rclone's remote "tb", from the environment alone (no config file holds the secret).
export RCLONE_CONFIG_TB_TYPE=s3 RCLONE_CONFIG_TB_PROVIDER=Ceph RCLONE_CONFIG_TB_ENV_AUTH=false
export RCLONE_CONFIG_TB_ENDPOINT=$S3_TEST_ENDPOINT RCLONE_CONFIG_TB_REGION=$AWS_REGION
export RCLONE_CONFIG_TB_ACCESS_KEY_ID=$AWS_ACCESS_KEY_ID
export RCLONE_CONFIG_TB_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY
export RCLONE_CONFIG_TB_FORCE_PATH_STYLE=true RCLONE_CONFIG=/dev/null

# wait_quiet: waits until no compiler runs (other engineers build on this host), up to
# quiet_wait seconds; counts the runs that started while one still ran.
echo 0 >"$W/noisy"
: >"$W/loads"
wait_quiet() {
  local waited=0
  while pgrep -f cc1plus >/dev/null; do
    if [ "$waited" -ge "$quiet_wait" ]; then
      echo $(($(cat "$W/noisy") + 1)) >"$W/noisy"
      echo "s3_read_vs_s3dlio: a compile still runs after ${quiet_wait}s: measuring anyway" >&2
      return
    fi
    sleep 5
    waited=$((waited + 5))
  done
  cut -d' ' -f1 /proc/loadavg >>"$W/loads"
}

s3opt=(storage.storage_options.s3_force_path_style=true --no-warnings)
small_prefix=small-$small_objects
large_prefix=large-$large_objects-$large_bytes
small_ds=(resnet50_h100 dataset.format=npy dataset.num_samples_per_file=1
  "dataset.num_files_train=$small_objects" "dataset.data_folder=s3://$bucket/$small_prefix" "${s3opt[@]}")
large_ds=(unet3d_h100 dataset.format=npy "dataset.record_length_bytes=$large_bytes"
  dataset.record_length_bytes_stdev=0 dataset.num_samples_per_file=1
  "dataset.num_files_train=$large_objects" "dataset.data_folder=s3://$bucket/$large_prefix" "${s3opt[@]}")
echo "s3_read_vs_s3dlio: datagen ($small_objects resnet50 samples, $large_objects objects of $large_bytes B)" >&2
timeout 600 "$TB" datagen "${small_ds[@]}" >/dev/null
timeout 600 "$TB" datagen "${large_ds[@]}" >/dev/null

# The objects' keys, total bytes and largest sample, from trainbench's manifest: PREFIX ->
# W/PREFIX.keys, .bytes, .sample
manifest_keys() {
  s3_curl GET "/$bucket/$1/trainbench_manifest.json" -o "$W/$1.manifest.json"
  $PY - "$W/$1.manifest.json" "$W/$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
open(sys.argv[2] + ".keys", "w").write("".join(f["path"] + "\n" for f in m["files"]))
open(sys.argv[2] + ".bytes", "w").write(str(sum(f["size_bytes"] for f in m["files"])) + "\n")
open(sys.argv[2] + ".sample", "w").write(str(max(f["sample_lengths"][0] for f in m["files"])) + "\n")
PY
}
manifest_keys "$small_prefix"
manifest_keys "$large_prefix"

# Each run prints "MB/s cpu_s read_MB/s read_cpu_s gw_cpu_s MB" (MB = 10^6 bytes received,
# all passes; read_*: the read phase alone, rclone's is its whole process).
timed() {  # timed CMD...: runs it under /usr/bin/time into W/time
  timeout 600 /usr/bin/time -f "%e %U %S" -o "$W/time" "$@"
}
tb_run() {  # tb_run DATASET_ARGS... (after the caller's own)
  local out=$W/out-tb g0 g1
  rm -rf "$out"
  wait_quiet
  g0=$(gw_cpu)
  timed "$TB" run "$@" train.computation_time=0 "train.epochs=$passes" --accelerators 1 \
    "reader.read_threads=$c" --io-threads 1 --io-depth "$c" output.folder="$out" --no-progress \
    >"$W/tb.log" 2>"$W/tb.err" || { tail -n 20 "$W/tb.err" >&2; return 1; }
  g1=$(gw_cpu)
  tail -n 1 "$W/tb.log" >"$W/tb.json"
  $PY - "$W/tb.json" "$out" "$W/time" "$g0" "$g1" <<'PY'
import glob, json, sys
m = json.load(open(sys.argv[1]))["trainbench_metrics"]
s = json.load(open(glob.glob(f"{sys.argv[2]}/*/summary.json")[0]))
if s["storage_counters"].get("s3_retries", 0):
    print("s3_read_vs_s3dlio: trainbench retried", s["storage_counters"]["s3_retries"], "GETs", file=sys.stderr)
wall, user, sys_ = map(float, open(sys.argv[3]).read().split())
mb = m["bytes_read"] / 1e6
print(mb / wall, user + sys_, m["io_mib_per_second"] * 2**20 / 1e6, s["cpu_seconds"],
      float(sys.argv[5]) - float(sys.argv[4]), mb)
PY
}
s3dlio_run() {  # s3dlio_run PREFIX [VAR=VALUE...]: s3dlio's environment for this run
  local g0 g1 prefix=$1
  shift
  sed "s|^|s3://$bucket/$prefix/|" "$W/$prefix.keys" >"$W/$prefix.uris"
  wait_quiet
  g0=$(gw_cpu)
  timed env "$@" "$PYPI_PY" "$ROOT/bench/s3dlio_read.py" "$W/$prefix.uris" "$c" "$passes" >"$W/s3dlio.json" 2>"$W/s3dlio.err" ||
    { tail -n 20 "$W/s3dlio.err" >&2; return 1; }
  g1=$(gw_cpu)
  $PY - "$W/s3dlio.json" "$W/time" "$g0" "$g1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall, user, sys_ = map(float, open(sys.argv[2]).read().split())
mb = r["bytes"] / 1e6
print(mb / wall, user + sys_, mb / r["read_seconds"], r["read_cpu_seconds"],
      float(sys.argv[4]) - float(sys.argv[3]), mb)
PY
}
rclone_run() {  # rclone_run PREFIX
  local g0 g1 got
  rm -rf "$SHM"
  mkdir -p "$SHM"
  wait_quiet
  g0=$(gw_cpu)
  # rclone's AWS SDK refuses AWS_CA_BUNDLE over http ("transport unsupported type")
  timed env -u AWS_CA_BUNDLE bash -c 'for ((p = 0; p < $3; p++)); do
      rclone copy "tb:$1" "$2/$p" --transfers "$4" --checkers "$4" --include "*.npy" \
        --ignore-checksum --no-check-dest --no-update-modtime -q || exit 1
    done' rclone "$bucket/$1" "$SHM" "$passes" "$c" 2>"$W/rclone.err" ||
    { tail -n 20 "$W/rclone.err" >&2; return 1; }
  g1=$(gw_cpu)
  got=$(du -sb "$SHM" | cut -f1)
  rm -rf "$SHM"
  [ "$got" -ge "$(($(cat "$W/$1.bytes") * passes))" ] ||
    { echo "s3_read_vs_s3dlio: rclone copied $got bytes, not $(($(cat "$W/$1.bytes") * passes))" >&2; return 1; }
  $PY - "$W/time" "$g0" "$g1" "$got" <<'PY'
import sys
wall, user, sys_ = map(float, open(sys.argv[1]).read().split())
mb = int(sys.argv[4]) / 1e6
print(mb / wall, user + sys_, mb / wall, user + sys_, float(sys.argv[3]) - float(sys.argv[2]), mb)
PY
}

# median RUN...: the median of each column over the runs.
median() {
  $PY -c 'import statistics, sys
rows = [[float(x) for x in a.split()] for a in sys.argv[1:]]
print(*[statistics.median(col) for col in zip(*rows)])' "$@"
}

rows=()
for set in small large; do
  if [ "$set" = small ]; then
    prefix=$small_prefix
    # a transfer_size above the sample's length: one GET a sample, as s3dlio and rclone read
    tb_args=("${small_ds[@]}" reader.batch_size=32 "reader.transfer_size=$(($(cat "$W/$prefix.sample") + 4096))")
  else
    prefix=$large_prefix
    tb_args=("${large_ds[@]}" reader.batch_size=1)
  fi
  t=() s=() n=() r=()
  for ((i = 1; i <= repeat; i++)); do
    echo "s3_read_vs_s3dlio: $set objects, round $i/$repeat" >&2
    t+=("$(tb_run "${tb_args[@]}")")
    s+=("$(s3dlio_run "$prefix")")
    n+=("$(s3dlio_run "$prefix" S3DLIO_ENABLE_RANGE_OPTIMIZATION=0)")
    r+=("$(rclone_run "$prefix")")
  done
  tm=$(median "${t[@]}")
  rows+=("$set|trainbench|$tm|$tm" "$set|s3dlio|$(median "${s[@]}")|$tm"
    "$set|s3dlio nohead|$(median "${n[@]}")|$tm" "$set|rclone|$(median "${r[@]}")|$tm")
done

echo "s3_read_vs_s3dlio: $(date -u +%Y-%m-%dT%H:%MZ), concurrency $c, $passes passes a run," \
  "median of $repeat runs ($(cat "$W/noisy") of the $((repeat * 8)) started while a compile ran;" \
  "1-minute load average at their starts $(sort -n "$W/loads" | head -n 1) to $(sort -n "$W/loads" | tail -n 1))"
printf "%-6s %-13s %8s %7s %9s %8s %9s %7s %8s %8s %8s %8s %8s\n" objects tool MB/s "CPU s" \
  "MB/CPU-s" "read MB/s" "read CPU" "gw CPU" MB "tb÷MB/s" "tb÷CPU" "rd÷MB/s" "rd÷CPU"
for row in "${rows[@]}"; do
  $PY - "$row" <<'PY'
import sys
set_, tool, v, ref = sys.argv[1].split("|")
mbs, cpu, read, rcpu, gw, mb = [float(x) for x in v.split()]
r = [float(x) for x in ref.split()]
ratio = (f"{r[0] / mbs:8.2f} {r[1] / cpu:8.2f} {r[2] / read:8.2f} {r[3] / rcpu:8.2f}"
         if tool != "trainbench" else "")
print(f"{set_:<6} {tool:<13} {mbs:8.1f} {cpu:7.2f} {mb / cpu:9.1f} {read:8.1f} {rcpu:9.2f} {gw:7.2f} {mb:8.1f} {ratio}".rstrip())
PY
done
echo "(small: $small_objects objects of ~112 KiB; large: $large_objects of $large_bytes B; each run reads"
echo " them $passes times in one process with $c objects in flight; MB/s and CPU s are the whole"
echo " process's (/usr/bin/time), read MB/s and read CPU the read phase's (trainbench's epochs,"
echo " s3dlio's get_many calls; rclone: its whole process); tb÷ and rd÷ = trainbench / the tool,"
echo " whole process and read phase: above 1 trainbench is faster (MB/s) or costlier (CPU))"
