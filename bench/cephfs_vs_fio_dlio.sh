#!/usr/bin/env bash
# trainbench run against fio and DLIO reading the same resnet50 TFRecord files on CephFS, cold:
# page caches are dropped before every run, so each read goes through the host's own ceph-fuse
# client to the OSD. On one host (hosta) and on two together (hosta and hostb, each reading
# half the files: trainbench and DLIO as 2 MPI ranks, fio as one process a host over disjoint
# halves). The suite's CephFS (tests/cephfs/cluster.sh): one memstore OSD, one MDS, each host
# its own client, all on this machine, so the figures are the client stack's (FUSE, ceph-fuse,
# the messenger), not a disk's.
#
# Each tool's own read rate (trainbench: io_mb_per_second; fio: io_bytes over its runtime;
# DLIO: train_io_mean_MB_per_second, converted to 10^6 bytes), and the CPU seconds of its
# processes (user + system, /usr/bin/time; DLIO's include importing TensorFlow, which is its
# cost too), best of REPEAT rounds in turn (the host is shared).
#
# Usage: bench/cephfs_vs_fio_dlio.sh   (env: FILES=8 THREADS=2 REPEAT=3 BATCH=16;
#   CEPHFS_DIR: a running tests/cephfs/cluster.sh, else one is started in
#   /tmp/trainbench-bench/cephfs and stopped at the end)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
TB=$root/build/trainbench
VENV=$root/.venv/bin
files=${FILES:-8} threads=${THREADS:-2} repeat=${REPEAT:-3} batch=${BATCH:-16}
record=114660 samples=1251  # resnet50's sample, fixed (DLIO's MB/s is samples x record)
scratch=/tmp/trainbench-bench/cephfs-bench
rm -rf "$scratch"
mkdir -p "$scratch"
if [ -z "${CEPHFS_DIR:-}" ]; then
  CEPHFS_DIR=/tmp/trainbench-bench/cephfs
  CEPHFS_OSD_BYTES=$((files * samples * record + (1 << 30))) bash tests/cephfs/cluster.sh start "$CEPHFS_DIR"
  trap 'bash tests/cephfs/cluster.sh stop "$CEPHFS_DIR"' EXIT
fi
# shellcheck disable=SC1091
source "$CEPHFS_DIR/env"
mapfile -t hosts <"$CEPHFS_HOSTS/mpirun.args"
data=$CEPHFS_MNT/bench-resnet50
shape=("dataset.num_files_train=$files" "dataset.num_samples_per_file=$samples" dataset.num_files_eval=0
  "dataset.record_length_bytes=$record" dataset.record_length_bytes_stdev=0 "dataset.data_folder=$data"
  train.computation_time=0 train.epochs=1 "reader.batch_size=$batch" "reader.read_threads=$threads"
  workflow.evaluation=false)
"$TB" datagen resnet50_h100 "${shape[@]}" --no-warnings --no-progress >/dev/null

on() {  # on HOST COMMAND...: on hosta or hostb, as the ranks run there
  local host=$1
  shift
  "$CEPHFS_HOSTS/rsh" "$host" "$(printf '%q ' "$@")"
}
cold() { sync && echo 3 >/proc/sys/vm/drop_caches && rm -f "$scratch"/cpu*; }
# Each rank under /usr/bin/time (mpirun's own rusage does not hold its ranks'): cpu.<rank>.
timed=(bash -c '/usr/bin/time -f "%U %S" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$scratch/cpu")
cpu_of() { awk '{s += $1 + $2} END {print s}' "$@"; }

tb() {  # tb HOSTS -> "MB/s CPU-s"
  cold
  local cmd=("$TB" run resnet50_h100 "${shape[@]}" --io-threads "$threads" --accelerators 1
    "output.folder=$scratch/tb-out" --no-progress --no-warnings)
  if [ "$1" = 1 ]; then
    on hosta /usr/bin/time -f "%U %S" -o "$scratch/cpu" "${cmd[@]}" 2>/dev/null | tail -n 1 >"$scratch/tb.json"
  else
    timeout 600 mpirun "${hosts[@]}" -np 2 "${timed[@]}" "${cmd[@]}" 2>/dev/null | tail -n 1 >"$scratch/tb.json"
  fi
  echo "$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trainbench_metrics"]["io_mb_per_second"])' \
    "$scratch/tb.json") $(cpu_of "$scratch"/cpu*)"
}

fio_job() {  # fio_job FILE SHARE OF: a job over this share of the files, $threads jobs
  local all=("$data"/train/*) mine=() i
  for ((i = $2; i < ${#all[@]}; i += $3)); do mine+=("${all[i]}"); done
  {
    printf "[global]\nrw=read\nbs=%s\niodepth=1\ninvalidate=0\nioengine=psync\nthread\ngroup_reporting\n" "$record"
    for ((j = 0; j < threads; j++)); do
      local part=()
      for ((i = j; i < ${#mine[@]}; i += threads)); do part+=("${mine[i]}"); done
      printf "[job%s]\nfilename=%s\n" "$j" "$(IFS=:; echo "${part[*]}")"
    done
  } >"$1"
}
fio_mbps() { /usr/bin/python3 -c 'import json, sys
rs = [json.load(open(p))["jobs"][0]["read"] for p in sys.argv[1:]]
print(sum(r["io_bytes"] for r in rs) / max(r["runtime"] for r in rs) * 1e3 / 1e6)' "$@"; }

fio_on() {  # fio_on HOSTS -> "MB/s CPU-s"
  cold
  if [ "$1" = 1 ]; then
    fio_job "$scratch/a.fio" 0 1
    on hosta /usr/bin/time -f "%U %S" -o "$scratch/cpu.a" fio --output-format=json --output="$scratch/a.json" "$scratch/a.fio"
    echo "$(fio_mbps "$scratch/a.json") $(cpu_of "$scratch/cpu.a")"
  else
    fio_job "$scratch/a.fio" 0 2
    fio_job "$scratch/b.fio" 1 2
    on hosta /usr/bin/time -f "%U %S" -o "$scratch/cpu.a" fio --output-format=json --output="$scratch/a.json" "$scratch/a.fio" &
    on hostb /usr/bin/time -f "%U %S" -o "$scratch/cpu.b" fio --output-format=json --output="$scratch/b.json" "$scratch/b.fio"
    wait
    echo "$(fio_mbps "$scratch/a.json" "$scratch/b.json") $(cpu_of "$scratch/cpu.a" "$scratch/cpu.b")"
  fi
}

dlio() {  # dlio HOSTS -> "MB/s CPU-s"
  cold
  rm -rf "$scratch/dlio"
  local kv=(framework=tensorflow reader.data_loader=tensorflow dataset.format=tfrecord
    "dataset.num_files_train=$files" "dataset.num_samples_per_file=$samples" dataset.num_files_eval=0
    "dataset.record_length=$record" dataset.record_length_stdev=0 "dataset.data_folder=$data"
    dataset.num_subfolders_train=0 dataset.num_subfolders_eval=0
    workflow.generate_data=False workflow.train=True workflow.evaluation=False train.epochs=1
    train.computation_time=0 "reader.batch_size=$batch" "reader.read_threads=$threads"
    "output.folder=$scratch/dlio")
  local cmd=("$VENV/dlio_benchmark" workload=default "${kv[@]/#/++workload.}" "hydra.run.dir=$scratch/dlio")
  if [ "$1" = 1 ]; then
    on hosta env TF_CPP_MIN_LOG_LEVEL=2 /usr/bin/time -f "%U %S" -o "$scratch/cpu" "${cmd[@]}" >"$scratch/dlio.out" 2>&1
  else
    TF_CPP_MIN_LOG_LEVEL=2 timeout 600 mpirun "${hosts[@]}" -np 2 -x TF_CPP_MIN_LOG_LEVEL "${timed[@]}" \
      "${cmd[@]}" >"$scratch/dlio.out" 2>&1
  fi
  echo "$(/usr/bin/python3 -c 'import json, sys
m = json.load(open(sys.argv[1] + "/summary.json"))["metric"]
print(m["train_io_mean_MB_per_second"] * 1048576 / 1e6)' "$scratch/dlio") $(cpu_of "$scratch"/cpu*)"
}

best() { /usr/bin/python3 -c 'import sys
rows = [list(map(float, r.split())) for r in sys.argv[1:]]
print(max(r[0] for r in rows), min(r[1] for r in rows))' "$@"; }

printf "%-6s %-12s %9s %9s %11s %9s %9s\n" hosts tool "MB/s" "CPU s" "MB/CPU-s" "rate/fio" "MB/CPU/fio"
for n in 1 2; do
  t=() f=() d=()
  for _ in $(seq "$repeat"); do
    f+=("$(fio_on "$n")")
    t+=("$(tb "$n")")
    d+=("$(dlio "$n")")
  done
  F=$(best "${f[@]}") T=$(best "${t[@]}") D=$(best "${d[@]}")
  /usr/bin/python3 -c 'import sys
n = sys.argv[1]
f, t, d = (list(map(float, x.split())) for x in sys.argv[2:5])
mb = sys.argv[5]
for name, (rate, cpu) in (("fio psync", f), ("trainbench", t), ("DLIO (TF)", d)):
    work = float(mb) / cpu
    print(f"{n:<6} {name:<12} {rate:9.0f} {cpu:9.2f} {work:11.0f} {rate / f[0]:9.2f} {work / (float(mb) / f[1]):9.2f}")' \
    "$n" "$F" "$T" "$D" "$(( files * samples * record / 1000000 ))"
done
echo "(MB = 10^6 bytes; $files files x $samples samples x $record bytes, cold; best of $repeat;"
echo " $threads reader threads (fio: jobs as threads) per host; rate: each tool's own figure)"
