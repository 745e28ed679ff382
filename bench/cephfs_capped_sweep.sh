#!/usr/bin/env bash
# The capacity answer across two hosts on CephFS with each host's link capped by tc: sweep
# --find-max-accelerators over hosta and hostb (2 ranks), every read from the OSD (O_DIRECT,
# reader.odirect: no page cache to hide the cap), each host's link to the cluster limited to
# CAP_MBIT (a tbf qdisc on the bridge's side of its veth, which carries the OSD's replies to
# it). The storage then feeds at most 2 x CAP an accelerator's demand at a time:
#   expected = floor(2 x CAP_MB/s / (0.9 x demand per accelerator))   (AU 90%)
# and the answer should be that within one, classified storage-bound. The CAP is what tc lets
# through; the file bytes a host gets through it are measured with fio (TCP's and Ceph's
# headers take their share), and each host carries half the accelerators.
#
# Usage: bench/cephfs_capped_sweep.sh   (env: CAP_MBIT=400 BATCH=4 COMPUTE=0.05 FILES=32;
#   CEPHFS_DIR: a running tests/cephfs/cluster.sh, else one is started and stopped)
set -euo pipefail
cd "$(dirname "$0")/.."
TB=$PWD/build/trainbench
cap=${CAP_MBIT:-400} batch=${BATCH:-4} compute=${COMPUTE:-0.05} files=${FILES:-32}
record=114660 samples=64
scratch=/tmp/trainbench-bench/cephfs-capped
rm -rf "$scratch"
mkdir -p "$scratch"
stop_cluster=
if [ -z "${CEPHFS_DIR:-}" ]; then
  CEPHFS_DIR=/tmp/trainbench-bench/cephfs
  bash tests/cephfs/cluster.sh start "$CEPHFS_DIR"
  stop_cluster=1
fi
# shellcheck disable=SC1091
source "$CEPHFS_DIR/env"
# shellcheck disable=SC1091
source "$CEPHFS_HOSTS/netns.env"
mapfile -t hosts <"$CEPHFS_HOSTS/mpirun.args"
w=(resnet50_h100 "dataset.num_files_train=$files" "dataset.num_samples_per_file=$samples"
  "dataset.record_length_bytes=$record" dataset.record_length_bytes_stdev=0
  "dataset.data_folder=$CEPHFS_MNT/capped" "train.computation_time=$compute" "reader.batch_size=$batch"
  reader.odirect=true "output.folder=$scratch/out")
"$TB" datagen "${w[@]}" --no-warnings --no-progress >/dev/null

uncap() { tc qdisc del dev "$NETNS_VA" root 2>/dev/null || true; tc qdisc del dev "$NETNS_VB" root 2>/dev/null || true; }
uncap
trap 'uncap; [ -z "$stop_cluster" ] || bash tests/cephfs/cluster.sh stop "$CEPHFS_DIR"' EXIT
for dev in "$NETNS_VA" "$NETNS_VB"; do
  tc qdisc add dev "$dev" root tbf rate "${cap}mbit" burst 256kb latency 200ms
done
# What each capped link delivers of file bytes (less than the cap: TCP's and Ceph's headers):
# fio on both hosts at once, O_DIRECT, each over its half of the files, 10 s.
fio_job() {  # fio_job FILE SHARE
  local all=("$CEPHFS_MNT"/capped/train/*) mine=() i
  for ((i = $2; i < ${#all[@]}; i += 2)); do mine+=("${all[i]}"); done
  printf "[r]\nrw=read\nbs=%s\ndirect=1\nioengine=psync\ntime_based\nruntime=10\nfilename=%s\n" \
    "$record" "$(IFS=:; echo "${mine[*]}")" >"$1"
}
fio_job "$scratch/a.fio" 0
fio_job "$scratch/b.fio" 1
"$CEPHFS_HOSTS/rsh" hosta "fio --output-format=json --output=$scratch/a.json $scratch/a.fio" &
"$CEPHFS_HOSTS/rsh" hostb "fio --output-format=json --output=$scratch/b.json $scratch/b.fio"
wait
link=$(/usr/bin/python3 -c 'import json, sys
print(min(json.load(open(p))["jobs"][0]["read"]["bw_bytes"] for p in sys.argv[1:]) / 1e6)' "$scratch/a.json" "$scratch/b.json")
demand=$(/usr/bin/python3 -c "print($batch * $record / $compute / 1e6)")
# An even split of N over the two hosts puts ceil(N/2) on one: each host's link feeds
# floor(link / (0.9 x demand)) accelerators at AU 90%, the two hosts twice that.
expected=$(/usr/bin/python3 -c "import math; print(2 * math.floor($link / (0.9 * $demand)))")
naive=$(/usr/bin/python3 -c "import math; print(math.floor(2 * $cap / 8 / (0.9 * $demand)))")
echo "cap ${cap} Mbit/s a host ($((cap / 8)) MB/s raw; fio reads $link MB/s of files through each at once)"
echo "demand $demand MB/s an accelerator: expected 2 x floor(link / (0.9 x demand)) = $expected (from the raw cap: $naive)"
start=$(date -u +%FT%TZ)
timeout 3000 mpirun "${hosts[@]}" -np 2 "$TB" sweep "${w[@]}" --find-max-accelerators --min 2 --max 64 \
  --no-progress --no-warnings >"$scratch/sweep.out" 2>"$scratch/sweep.err" ||
  { tail -n 20 "$scratch/sweep.err"; exit 1; }
/usr/bin/python3 - "$scratch/sweep.out" "$expected" "$start" <<'PY'
import json, sys
line = [l for l in open(sys.argv[1]) if l.startswith("{")][-1]
s = json.loads(line)["trainbench_sweep"]
print(f"{sys.argv[3]}: answer {s.get('answer_accelerators')} (expected {sys.argv[2]}), "
      f"limited by {s.get('limited_by')}")
print(s.get("sentence", ""))
PY
