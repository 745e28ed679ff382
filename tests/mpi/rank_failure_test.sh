#!/usr/bin/env bash
# A rank that fails ends the whole job within seconds, naming the rank, its host and the
# reason, and rank 0 still writes partial results: a rank whose read fails (a dataset file
# cut short mid-run) tells the others, which stop and hand over their records; a rank killed
# with SIGKILL makes mpirun end the job, and rank 0 keeps its own measurements.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"

"$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >/dev/null 2>&1 || fail "datagen"
long=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=4 train.epochs=400 train.computation_time=0.01
  -a 1 --no-progress)

# wait_for_epochs FILE: until the job has finished an epoch (at most 30 s).
wait_for_epochs() { wait_for_line "$1" "epoch 2/400" "the job did not get going"; }

# 1. A read fails on one rank: file 0 is cut short while 3 ranks read it.
cp -a "$WORK/data" "$WORK/cut"
start=$(date +%s)
mpi_launch 60 -np 3 "$TB" run "${long[@]}" "dataset.data_folder=$WORK/cut" >cut.txt 2>&1 &
job=$!
wait_for_epochs cut.txt
truncate -s 1000 "$WORK/cut/train/img_00_of_16.tfrecord"
code=0
wait "$job" || code=$?
[ "$code" != 0 ] || fail "the job succeeded with a cut file"
[ "$code" != 124 ] && [ "$code" != 137 ] || fail "the job hung until the timeout"
[ $(($(date +%s) - start)) -lt 40 ] || fail "the job took too long to end"
grep -Eq "error: rank [0-2] \([^)]+\): short read at offset [0-9]+ of '.*img_00_of_16.tfrecord'.*partial results" cut.txt ||
  fail "no error naming the rank, host, file and offset: $(grep -v '^train ' cut.txt | tail -20)"
s=$(newest_summary)
[ "$(json "$s" 'd["complete"]')" = False ] || fail "summary not marked incomplete"
json "$s" 'd["stop_reason"]' | grep -Eq "^rank [0-2] \(" || fail "stop_reason lacks the rank"
[ "$(json "$s" 'len(d["ranks"])')" = 3 ] || fail "every rank's record should be there"
# Each rank stopped: by its own short read, or told by the rank that had one (two ranks may
# meet the cut file before the first one's notice arrives).
[ "$(json "$s" 'all(r["stop_reason"].startswith("rank ") or r["stop_reason"].startswith("short read") for r in d["ranks"]) and any(r["stop_reason"].startswith("short read") for r in d["ranks"])')" = True ] ||
  fail "every rank stops, by the short read or told of it: $(json "$s" '[r["stop_reason"] for r in d["ranks"]]')"

# 2. A rank killed: mpirun ends the job and says which; rank 0 writes what it measured.
rm -rf "$WORK/out"
start=$(date +%s)
mpi_launch 60 -np 3 "$TB" run "${long[@]}" >kill.txt 2>&1 &
job=$!
wait_for_epochs kill.txt
victim=""
for pid in $(pgrep -f "$TB run resnet50_h100"); do
  tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && victim=$pid
done
[ -n "$victim" ] || fail "rank 1's process not found"
kill -9 "$victim"
code=0
wait "$job" || code=$?
[ "$code" != 0 ] || fail "the job succeeded with a rank killed"
[ "$code" != 124 ] || fail "the job hung until the timeout"
[ $(($(date +%s) - start)) -lt 40 ] || fail "the job took too long to end"
grep -q "process rank 1 .* exited on signal 9" kill.txt || fail "mpirun did not name the rank: $(tail kill.txt)"
s=$(newest_summary)
[ "$(json "$s" 'd["complete"], d["ranks_missing"]')" = "(False, 2)" ] ||
  fail "rank 0's partial results: $(json "$s" 'd.get("ranks_missing"), d["stop_reason"]')"
[ "$(json "$s" 'len([p for p in d["phases"] if p["complete"]]) > 0')" = True ] ||
  fail "rank 0 kept no complete epoch"
echo OK
