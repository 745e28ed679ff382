#!/usr/bin/env bash
# Start-up over an S3 prefix of many objects: retinanet_b200's layout (one 2.6 KB JPEG per
# sample) written by trainbench datagen to the loopback Ceph RADOS Gateway, then read once by
# trainbench run (one accelerator, computation_time 0, one epoch). Per count: start-up = the
# run's wall time minus its own reading time (summary.json run_seconds), i.e. the manifest,
# the size check's listing and planning; peak RSS; the requests the run made by kind
# (summary.json storage_latency_ms counts: LIST pages, HEADs, GETs), which must be one LIST page
# a 1,000 objects and no HEAD; and, as the floor any tool pays before its first read, curl
# walking the prefix's listing pages (ListObjectsV2, 1,000 keys a page).
#
#   bash bench/startup_s3.sh                    # starts a gateway under WORK, stops it on exit
#   S3_GATEWAY_DIR=/tmp/gw bash bench/startup_s3.sh   # or uses a running one (tests/s3/gateway.sh)
#
# Env: SIZES ("1000 100000"), TRAINBENCH (build/trainbench), WORK (/tmp/trainbench-startup-s3).
# The gateway keeps objects in memory (memstore, 1 GiB): 100k objects take about 400 MB there.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TB=$(realpath "${TRAINBENCH:-build/trainbench}")
PY=/usr/bin/python3
read -r -a sizes <<<"${SIZES:-1000 100000}"
W=${WORK:-/tmp/trainbench-startup-s3}
bucket=trainbench-startup
mkdir -p "$W"
[ -x "$TB" ] || { echo "startup_s3: no trainbench at $TB (build it first)" >&2; exit 1; }

source "$ROOT/tests/lib/s3.sh"  # s3_curl
source "$ROOT/bench/lib/s3_gateway.sh"
bench_gateway startup_s3 "$W"
s3_curl PUT "/$bucket" >/dev/null || true

shape=(dataset.record_length_bytes=2600 dataset.record_length_bytes_stdev=0
  storage.storage_options.s3_force_path_style=true --no-warnings --no-progress)

# list_walk PREFIX -> "seconds pages keys": every ListObjectsV2 page of PREFIX/, one after another.
list_walk() {
  local prefix=$1 token="" pages=0 keys=0 t0 page
  t0=$(date +%s.%N)
  while :; do
    # Parameters in sorted order and percent-encoded, as curl's SigV4 signs the query as given.
    page=$(s3_curl GET "/$bucket?${token:+continuation-token=$token&}list-type=2&max-keys=1000&prefix=$prefix%2F")
    pages=$((pages + 1))
    keys=$((keys + $(grep -o '<Key>' <<<"$page" | wc -l)))
    grep -q '<IsTruncated>true</IsTruncated>' <<<"$page" || break
    token=$($PY -c 'import re, sys, urllib.parse
print(urllib.parse.quote(re.search(r"<NextContinuationToken>([^<]*)<", sys.stdin.read()).group(1), safe=""))' <<<"$page")
  done
  echo "$(echo "$(date +%s.%N) - $t0" | bc) $pages $keys"
}

printf "%9s %12s %12s %10s %10s %6s %6s %8s %12s\n" objects "list walk s" "tb start s" \
  "tb RSS MB" "B/object" LIST HEAD GET "list pages"
base_rss=""
for n in "${sizes[@]}"; do
  prefix=startup-$n
  data=s3://$bucket/$prefix
  echo "startup_s3: datagen $n objects to $data" >&2
  timeout 3000 "$TB" datagen retinanet_b200 "dataset.num_files_train=$n" "dataset.data_folder=$data" \
    "${shape[@]}" >"$W/datagen.log" 2>&1
  read -r walk_s pages keys <<<"$(list_walk "$prefix")"
  rm -rf "$W/out"
  /usr/bin/time -f "%e %M" -o "$W/time" timeout 3000 "$TB" run retinanet_b200 \
    "dataset.num_files_train=$n" "dataset.data_folder=$data" "${shape[@]}" train.epochs=1 \
    train.computation_time=0 output.folder="$W/out" --interval 0 >"$W/run.log" 2>&1
  read -r start rss list head get <<<"$($PY - "$W/time" "$(ls -d "$W"/out/*/)summary.json" <<'PY'
import json, sys
wall, rss = open(sys.argv[1]).read().split()[-2:]
s = json.load(open(sys.argv[2]))
ops = s.get("storage_latency_ms", {})
count = lambda op: int(ops.get(op, {}).get("count", 0))
print(float(wall) - s["run_seconds"], rss, count("LIST"), count("HEAD"), count("GET"))
PY
)"
  [ -n "$base_rss" ] || base_rss=$rss
  $PY -c 'import sys
n, walk, start, rss, base = map(float, sys.argv[1:6])
per = (rss - base) * 1024 / (n - 1000) if n > 1000 else float("nan")
print(f"{n:9.0f} {walk:12.2f} {start:12.2f} {rss / 1024:10.1f} {per:10.0f} {sys.argv[6]:>6} "
      f"{sys.argv[7]:>6} {sys.argv[8]:>8} {sys.argv[9]:>12}")' "$n" "$walk_s" "$start" "$rss" \
    "$base_rss" "$list" "$head" "$get" "$pages"
done
echo "(start-up = wall - the run's reading time; LIST/HEAD/GET: the run's requests; list walk: curl"
echo " over every ListObjectsV2 page of the prefix; B/object: RSS above the first count's; $(date -u +%F), $(nproc) CPUs)"
