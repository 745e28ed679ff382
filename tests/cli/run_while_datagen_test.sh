#!/usr/bin/env bash
# `run` on a dataset that a datagen is writing refuses at once, naming the writer (pid and
# host), with datagen's own exit status for a locked folder (1), instead of calling the
# dataset damaged ("2 of 4 files ... write a matching dataset"). Once the writer is done the
# run goes ahead.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
lock=$WORK/data/.trainbench.lock
echo "pid 4242 on otherhost" >"$lock"
# One process holds the lock (flock(2), as datagen does): killing it releases the lock, and
# no child is left holding the test's output open.
$PY -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(30)' "$lock" >"$WORK/holder.out" &
holder=$!
wait_for_line "$WORK/holder.out" held "the lock holder did not start"
expect_exit 1 "$WORK/out.txt" "$TB" run resnet50_h100 "${TINY[@]}" train.epochs=1 --no-progress
contains "$WORK/out.txt" "the dataset at '$WORK/data' is being written by pid 4242 on otherhost (trainbench datagen): wait for it to finish"
check "no results folder for a refused run" test -z "$(ls "$WORK/out" 2>/dev/null)"
kill $holder
wait $holder 2>/dev/null || true
expect_exit 0 "$WORK/out.txt" "$TB" run resnet50_h100 "${TINY[@]}" train.epochs=1 --no-progress
# A read-only dataset (no lock can be taken there) still runs.
chmod -R a-w "$WORK/data"
if [ "$(id -u)" != 0 ]; then
  expect_exit 0 "$WORK/out.txt" "$TB" run resnet50_h100 "${TINY[@]}" train.epochs=1 --no-progress
fi
chmod -R u+w "$WORK/data"
done_ok
