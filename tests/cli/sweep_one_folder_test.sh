#!/usr/bin/env bash
# Two identical sweeps into one output folder (issue 46.2): the search's folder is named by what
# it searches, so the second would probe every count again beside the first, interleave
# probes.jsonl and write the one summary.json. While the first holds the folder the second is
# refused (exit 2) before any probe, naming the holder; a grid the same. Once the first ends,
# the same command runs (and takes what the first finished).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# 40 steps of 50 ms: each probe and point takes about 2 s, long enough to be caught running.
w=(resnet50_h100 dataset.num_files_train=40 dataset.num_samples_per_file=1 dataset.record_length_bytes=20000
  dataset.record_length_bytes_stdev=0 "dataset.data_folder=$WORK/d" reader.batch_size=1
  train.computation_time=0.05 train.epochs=1 "output.folder=$WORK/out")
expect_exit 0 datagen.out "$TB" datagen "${w[@]}" --no-progress

# second_refused NAME JOURNAL ARGS...: start the sweep, wait until it journals its first line in
# JOURNAL, run the same command again (refused), then let the first end.
second_refused() {
  local name=$1 journal=$2
  shift 2
  "$TB" sweep "${w[@]}" "$@" --no-progress >"$name-first.out" 2>&1 &
  local pid=$! found=
  for _ in $(seq 1200); do
    found=$(ls "$WORK"/out/sweep-*/"$journal" 2>/dev/null | head -n 1) || true
    [ -n "$found" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$name-first.out"; fail "the first $name ended before the second began"; }
    sleep 0.05
  done
  [ -n "$found" ] || fail "the first $name journaled nothing in 60 s"
  local folder lines
  folder=$(dirname "$found")
  lines=$(wc -l <"$found")
  expect_exit 2 "$name-second.out" "$TB" sweep "${w[@]}" "$@" --no-progress
  contains "$name-second.out" "results folder '$folder' is in use by another trainbench (pid $pid on "
  contains "$name-second.out" "wait for it to end"
  check "the first $name was still running when the second was refused" kill -0 "$pid"
  # The refused one ran nothing: no probe or point of its own in the journal.
  if grep -q "sweep: .* accelerator(s)\|point 1 of" "$name-second.out"; then
    cat "$name-second.out"
    fail "the refused $name ran something"
  fi
  wait "$pid" || { cat "$name-first.out"; fail "the first $name failed"; }
  check "the first $name's summary is its own and complete" "$PY" - "$folder/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is True, s.get("stop_reason")
PY
  # The journal holds each place once: no count probed twice.
  check "no probe or point journaled twice" "$PY" - "$found" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
keys = [json.dumps({k: r.get(k) for k in ("accelerators", "full", "repeat", "values")}, sort_keys=True) for r in rows]
assert len(keys) == len(set(keys)), keys
PY
  # The same command afterwards: the folder is free, and what the first finished is taken.
  expect_exit 0 "$name-again.out" "$TB" sweep "${w[@]}" "$@" --no-progress
  echo "$name: refused while '$folder' was held ($lines journal line(s) then)"
}

second_refused find-max probes.jsonl --find-max-accelerators --max 4 --confirm 1
second_refused grid points.jsonl reader.read_threads=1,2 --accelerators 1,2
echo "PASS: sweep_one_folder ($checks checks)"
