#!/usr/bin/env bash
# S3 GET throughput and latency on the loopback Ceph RADOS Gateway: trainbench's s3 read
# engine against curl processes at the same concurrency, in one run, one table.
#
#   bash bench/s3_get.sh                      # starts a gateway under /tmp, stops it on exit
#   S3_GATEWAY_DIR=/tmp/gw bash bench/s3_get.sh   # or uses a running one (tests/s3/gateway.sh)
#
# The dataset: OBJECTS npy objects of one 1 MiB sample each (1 MiB + a 128-byte header),
# written by trainbench datagen. Per concurrency C and round (REPEAT rounds, the tools
# alternate so load hits both alike; best of each):
#  - curl: C curl processes, each one connection with keep-alive fetching its share of the
#    objects one after another (one curl with many URLs, --aws-sigv4, -o /dev/null), the same
#    byte range trainbench asks for; wall clock and CPU (user + sys) of all of them;
#    per-GET latency from -w %{time_total}.
#  - trainbench run: computation_time 0, one accelerator, read_threads C, one reader loop
#    with io_depth C (and two loops with C/2 each): C GETs in flight, one GET per sample;
#    MiB/s = bytes_read over the epochs' time, CPU from summary.json, GET latency p50/p99.
#  Both read the dataset PASSES times (trainbench: epochs).
# Then the resnet50_h100 get phase on S3 (RESNET_FILES files of RESNET_SAMPLES ~115 KB samples,
# RESNET_ACCEL accelerators, batch RESNET_BATCH, computation_time 0, its default 8 read threads
# per accelerator, one ranged GET a sample): samples/s, MiB/s, CPU, latency.
# Then large objects (LARGE_OBJECTS of LARGE_BYTES, one sample each, LARGE_EPOCHS epochs) read
# with the default S3 range (storage_options.range_size, 8 MiB as the AWS SDKs' and rclone's
# download parts) and with range_size=0, i.e. reader.transfer_size's 256 KiB ranges (DLIO's).
# The gateway keeps objects in memory (memstore, 1 GiB): the defaults write ~500 MB.
# "gw CPU s" is the gateway's CPU (radosgw + ceph-osd) during the measurement: on this
# 2-core host the client and the gateway share the cores.
#
# Env: OBJECTS (256), OBJECT_BYTES (1048576), CONCURRENCY ("8"), REPEAT (3), PASSES (4), BATCH (32), RESNET_FILES (4),
# RESNET_SAMPLES (500), RESNET_BATCH (100), RESNET_ACCEL (4), RESNET_EPOCHS (3), LARGE_OBJECTS (4),
# LARGE_BYTES (33554432), LARGE_EPOCHS (2), TRAINBENCH (build/trainbench), WORK (/tmp/trainbench-s3get),
# S3_GATEWAY_DIR (a running gateway's folder; otherwise one is started in WORK/gw).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TB=$(realpath "${TRAINBENCH:-build/trainbench}")
PY=/usr/bin/python3
objects=${OBJECTS:-256}
object_bytes=${OBJECT_BYTES:-1048576}  # one sample an object (npy: plus a 128-byte header)
read -r -a concurrency <<<"${CONCURRENCY:-8}"
repeat=${REPEAT:-3}
passes=${PASSES:-4}
batch=${BATCH:-32}
resnet_files=${RESNET_FILES:-4}
resnet_samples=${RESNET_SAMPLES:-500}
resnet_batch=${RESNET_BATCH:-100}
resnet_accel=${RESNET_ACCEL:-4}
resnet_epochs=${RESNET_EPOCHS:-3}
large_objects=${LARGE_OBJECTS:-4}
large_bytes=${LARGE_BYTES:-33554432}
large_epochs=${LARGE_EPOCHS:-2}
W=${WORK:-/tmp/trainbench-s3get}
bucket=trainbench-s3get
mkdir -p "$W"
[ -x "$TB" ] || { echo "s3_get: no trainbench at $TB (build it first)" >&2; exit 1; }

source "$ROOT/tests/lib/s3.sh"  # s3_curl (a part of the test library)
source "$ROOT/bench/lib/s3_gateway.sh"
bench_gateway s3_get "$W"
s3_curl PUT "/$bucket" >/dev/null

s3opt=(storage.storage_options.s3_force_path_style=true --no-warnings)
get_ds=(resnet50_h100 dataset.format=npy "dataset.record_length_bytes=$object_bytes"
  dataset.num_samples_per_file=1 "dataset.num_files_train=$objects"
  "dataset.data_folder=s3://$bucket/get-$objects-$object_bytes" "${s3opt[@]}")
res_ds=(resnet50_h100 "dataset.num_files_train=$resnet_files"
  "dataset.num_samples_per_file=$resnet_samples"
  "dataset.data_folder=s3://$bucket/resnet50-$resnet_files-$resnet_samples" "${s3opt[@]}")
large_ds=(unet3d_h100 dataset.format=npy "dataset.record_length_bytes=$large_bytes"
  dataset.record_length_bytes_stdev=0 dataset.num_samples_per_file=1
  "dataset.num_files_train=$large_objects"
  "dataset.data_folder=s3://$bucket/large-$large_objects-$large_bytes" "${s3opt[@]}")
echo "s3_get: datagen ($objects objects of $object_bytes bytes; resnet50_h100: $resnet_files x $resnet_samples samples)" >&2
timeout 600 "$TB" datagen "${get_ds[@]}" >/dev/null
timeout 600 "$TB" datagen "${res_ds[@]}" >/dev/null
timeout 600 "$TB" datagen "${large_ds[@]}" >/dev/null

# The objects' keys and the sample's byte range, from trainbench's manifest.
s3_curl GET "/$bucket/get-$objects-$object_bytes/trainbench_manifest.json" -o "$W/manifest.json"
$PY - "$W/manifest.json" "$W/keys" "$W/range" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
open(sys.argv[2], "w").write("".join(f["path"] + "\n" for f in m["files"]))
f = m["files"][0]
o, n = f["sample_offsets"][0], f["sample_lengths"][0]
open(sys.argv[3], "w").write(f"{o}-{o + n - 1}\n")
PY
mapfile -t keys <"$W/keys"
range=$(cat "$W/range")

# curl_run C -> "MiB/s cpu_s p50_ms p99_ms objects/s gw_cpu_s MiB"
curl_run() {
  local c=$1 p i pass
  rm -f "$W"/curl.cfg.* "$W"/curl.out.*
  for ((p = 0; p < c; p++)); do
    {
      echo "range = \"$range\""
      for ((pass = 0; pass < passes; pass++)); do
        for ((i = p; i < ${#keys[@]}; i += c)); do
          printf 'url = "%s/%s/get-%s-%s/%s"\noutput = "/dev/null"\n' "$S3_TEST_ENDPOINT" "$bucket" "$objects" "$object_bytes" "${keys[i]}"
        done
      done
    } >"$W/curl.cfg.$p"
  done
  cat >"$W/curl.sh" <<'SH'
c=$1 W=$2
for ((p = 0; p < c; p++)); do
  curl -sS --max-time 120 --aws-sigv4 "aws:amz:${AWS_REGION:-us-east-1}:s3" \
    --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" \
    -w '%{http_code} %{size_download} %{time_total} %{time_starttransfer}\n' \
    -K "$W/curl.cfg.$p" >"$W/curl.out.$p" &
done
wait
SH
  local g0 g1
  g0=$(gw_cpu)
  timeout 600 /usr/bin/time -f "%e %U %S" -o "$W/curl.time" bash "$W/curl.sh" "$c" "$W"
  g1=$(gw_cpu)
  $PY - "$W" "$c" "$g0" "$g1" <<'PY'
import glob, sys
w, c, g0, g1 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
wall, user, sys_ = map(float, open(f"{w}/curl.time").read().split())
lat, total, n = [], 0, 0
for f in glob.glob(f"{w}/curl.out.*"):
    for line in open(f):
        code, size, t, _ = line.split()
        if code not in ("200", "206"):
            sys.exit(f"s3_get: curl got HTTP {code}")
        total += int(size); n += 1; lat.append(float(t) * 1e3)
lat.sort()
q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
print(total / 2**20 / wall, user + sys_, q(0.5), q(0.99), n / wall, g1 - g0, total / 2**20)
PY
}

# tb_run NAME ARGS... -> "MiB/s cpu_s p50_ms p99_ms samples/s gw_cpu_s MiB"
tb_run() {
  local out=$W/out-$1 g0 g1
  shift
  rm -rf "$out"
  g0=$(gw_cpu)
  timeout 600 "$TB" run "$@" train.computation_time=0 output.folder="$out" --no-progress \
    >"$W/tb.log" 2>"$W/tb.err" || { tail -n 20 "$W/tb.err" >&2; return 1; }
  g1=$(gw_cpu)
  tail -n 1 "$W/tb.log" >"$W/tb.json"
  $PY - "$W/tb.json" "$out" "$g0" "$g1" <<'PY'
import glob, json, sys
m = json.load(open(sys.argv[1]))["trainbench_metrics"]
s = json.load(open(glob.glob(f"{sys.argv[2]}/*/summary.json")[0]))
if s["storage_counters"].get("s3_retries", 0):
    print("s3_get: trainbench retried", s["storage_counters"]["s3_retries"], "GETs", file=sys.stderr)
l = m["read_latency_ms"]
print(m["io_mib_per_second"], s["cpu_seconds"], l["p50"], l["p99"], m["samples_per_second"],
      float(sys.argv[4]) - float(sys.argv[3]), m["bytes_read"] / 2**20)
PY
}

# best "a..." "b...": MiB/s, objects/s max; CPU, latencies, gateway CPU min.
best() {
  $PY -c 'import sys
if not sys.argv[1]: print(sys.argv[2]); sys.exit()
a = [float(x) for x in sys.argv[1].split()]; b = [float(x) for x in sys.argv[2].split()]
print(*[max(x, y) if i in (0, 4) else min(x, y) for i, (x, y) in enumerate(zip(a, b))])' "$1" "$2"
}

rows=()
for c in "${concurrency[@]}"; do
  tb1=(--accelerators 1 "reader.read_threads=$c" --io-threads 1 --io-depth "$c")
  h=$(((c + 1) / 2))
  tb2=(--accelerators 1 "reader.read_threads=$c" --io-threads 2 --io-depth "$h")
  common=("${get_ds[@]}" "train.epochs=$passes" "reader.batch_size=$batch" "reader.transfer_size=$((object_bytes + 4096))")
  cu="" t1="" t2=""
  for ((r = 1; r <= repeat; r++)); do
    echo "s3_get: concurrency $c, round $r/$repeat" >&2
    cu=$(best "$cu" "$(curl_run "$c")")
    t1=$(best "$t1" "$(tb_run tb1 "${common[@]}" "${tb1[@]}")")
    t2=$(best "$t2" "$(tb_run tb2 "${common[@]}" "${tb2[@]}")")
  done
  rows+=("curl|$c x 1|$cu|$cu" "trainbench|1 x $c|$t1|$cu" "trainbench|2 x $h|$t2|$cu")
done
rn=""
for ((r = 1; r <= repeat; r++)); do
  echo "s3_get: resnet50_h100 get phase, round $r/$repeat" >&2
  rn=$(best "$rn" "$(tb_run resnet "${res_ds[@]}" "train.epochs=$resnet_epochs" "reader.batch_size=$resnet_batch" --accelerators "$resnet_accel")")
done
rows+=("resnet50_h100 $resnet_accel acc|default|$rn|")
lg="" ls=""
for ((r = 1; r <= repeat; r++)); do
  echo "s3_get: $large_objects objects of $large_bytes B, 8 MiB and 256 KiB ranges, round $r/$repeat" >&2
  large=("${large_ds[@]}" "train.epochs=$large_epochs" reader.batch_size=1 --accelerators 1)
  lg=$(best "$lg" "$(tb_run large "${large[@]}")")
  ls=$(best "$ls" "$(tb_run large256k "${large[@]}" storage.storage_options.range_size=0)")
done
rows+=("large, 8 MiB ranges|default|$lg|" "large, 256 KiB ranges|default|$ls|$lg")

printf "%-22s %-8s %8s %7s %9s %8s %8s %8s %7s %8s %8s\n" tool "loops x" MiB/s "CPU s" \
  "MiB/CPU-s" "p50 ms" "p99 ms" "GETs/s" "gw CPU" "MiB/s÷" "CPU÷"
for row in "${rows[@]}"; do
  $PY - "$row" "$passes" "$objects" <<'PY'
import sys
tool, loops, v, ref = sys.argv[1].split("|")
v = [float(x) for x in v.split()]
mib, cpu, p50, p99, rate, gw, total = v
if ref:
    r = [float(x) for x in ref.split()]
    ratio = f"{mib / r[0]:8.2f} {cpu / r[1]:8.2f}" if tool != "curl" else f"{'':8} {'':8}"
else:
    ratio = f"{'':8} {'':8}"
print(f"{tool:<22} {loops:<8} {mib:8.1f} {cpu:7.2f} {total / cpu:9.1f} {p50:8.2f} {p99:8.2f} {rate:8.1f} {gw:7.2f} {ratio}")
PY
done
echo "(best of $repeat rounds each, the tools alternating; $objects objects of $object_bytes B read $passes times"
echo " per run; 'loops x' = curl processes x connections, or trainbench reader loops x GETs in"
echo " flight per loop; ÷ = trainbench / curl at the same concurrency; gw CPU = radosgw + ceph-osd"
echo " CPU seconds during the run; the resnet50 row: samples/s under GETs/s, one ranged GET a sample;"
echo " the large rows: samples/s under GETs/s, and the 256 KiB row's ÷ is against the 8 MiB row)"
