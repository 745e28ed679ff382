#!/usr/bin/env bash
# The disk holding the results fills while a run is going: the table and the JSON line are
# still printed, no results file is half-written, summary.json (if it fits) lists what could
# not be written, and the exit is 1 naming them. Private mount namespace with a small tmpfs;
# skipped where mounts are not allowed.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "unshare -m true" "needs mount namespaces (root or user namespaces)"

w=(resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=64 dataset.record_length_bytes=1000
   dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/d" reader.batch_size=4 train.epochs=2
   train.computation_time=0.05)
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" --no-progress

cat >"$WORK/inner.sh" <<INNER
set -u
mnt=$WORK/mnt
mkdir -p \$mnt
mount -t tmpfs -o size=256k tmpfs \$mnt || exit 77
code=0
"$TRAINBENCH" run ${w[*]} output.folder=\$mnt/results --no-progress >$WORK/run.out 2>&1 &
pid=\$!
# Once the run has begun (its config.yaml is written), fill the rest of the disk.
for _ in \$(seq 200); do
  grep -q "results in" $WORK/run.out && break
  sleep 0.05
done
head -c 10000000 /dev/zero >\$mnt/filler 2>/dev/null
wait \$pid || code=\$?
echo \$code >$WORK/run.code
find \$mnt/results -type f | sort >$WORK/files
ls -la \$mnt/results/* >$WORK/listing 2>&1
for f in \$mnt/results/*/summary.json; do
  if [ -f "\$f" ]; then python3 -c "import json,sys; json.load(open(sys.argv[1]))" "\$f" || echo "bad \$f" >>$WORK/bad; fi
done
for f in \$mnt/results/*/epochs.csv; do
  if [ -f "\$f" ]; then head -n 1 "\$f" | grep -q '^kind,epoch,' || echo "bad \$f" >>$WORK/bad; fi
done
umount \$mnt
INNER
rc=0
unshare -m bash "$WORK/inner.sh" || rc=$?
skip_unless "[ $rc != 77 ]" "cannot mount tmpfs here"

check "exit 1 (got $(cat "$WORK/run.code"))" test "$(cat "$WORK/run.code")" -eq 1
contains "$WORK/run.out" "AU"                      # the table
contains "$WORK/run.out" '{"trainbench_metrics":'  # the JSON line
contains "$WORK/run.out" "results incomplete: could not write epochs.csv, timeseries.csv, summary.json"
check "no summary.json or epochs.csv cut short" test ! -e "$WORK/bad"
check "no temporary file left" bash -c "! grep -q tbtmp '$WORK/files'"
# epochs.csv and summary.json may be there from before the disk filled (they are kept as the run
# goes, whole each time): then they are an earlier whole version, never a cut one.
check "what is there is whole" "$PY" - "$WORK/listing" <<'PY'
import sys
listing = open(sys.argv[1]).read()
assert "tbtmp" not in listing, listing
PY
echo "run_results_full_disk: ok"
