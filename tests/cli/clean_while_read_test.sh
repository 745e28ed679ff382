#!/usr/bin/env bash
# `clean --yes` of a dataset a `run` is reading (issue 46.3): the run marks itself a reader
# (.trainbench.readers/<host>.<pid>.<n>, flock'd while it runs), so clean refuses (exit 1) with
# nothing removed, naming the reader, and the run goes on to its end; once the run has ended the
# mark is gone and clean removes everything. A reader killed with SIGKILL leaves its mark, free:
# clean takes it for a dead reader's and removes it with the rest.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

d=(resnet50_h100 dataset.num_files_train=16 dataset.num_samples_per_file=50 reader.batch_size=4
  train.computation_time=0.02 "dataset.data_folder=$WORK/data" "output.folder=$WORK/out")
expect_exit 0 datagen.out "$TB" datagen "${d[@]}" --no-progress
files=$(find "$WORK/data" -type f | wc -l)

# start_reader EPOCHS OUT: a run in the background; waits for its reader's mark.
start_reader() {
  "$TB" run "${d[@]}" "train.epochs=$1" --no-progress >"$2" 2>&1 &
  reader=$!
  for _ in $(seq 600); do
    [ -n "$(ls "$WORK/data/.trainbench.readers/" 2>/dev/null)" ] && return 0
    kill -0 "$reader" 2>/dev/null || { cat "$2"; fail "the run ended before its mark was seen"; }
    sleep 0.05
  done
  fail "no reader's mark in 30 s"
}

# Two epochs of 200 steps of 20 ms: about 8 s.
start_reader 2 run.out
expect_exit 1 clean.out "$TB" clean "${d[@]}" --yes
contains clean.out "is being read by 1 trainbench job (pid $reader on "
contains clean.out "nothing removed"
[ "$(find "$WORK/data" -type f -not -path '*/.trainbench.readers/*' | wc -l)" = "$files" ] ||
  fail "clean removed files under a running reader"
wait "$reader" || { cat run.out; fail "the run died under clean"; }
check "the run read to its end" "$PY" - "$(ls -d "$WORK"/out/*/ | head -n 1)summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is True and s["epochs"] == 2, (s["complete"], s.get("epochs"))
PY
[ ! -e "$WORK/data/.trainbench.readers" ] || fail "the run left its mark: $(ls -la "$WORK/data/.trainbench.readers")"

# A reader killed with SIGKILL: its mark stays, unlocked; clean removes it and the dataset.
start_reader 100 killed.out
kill -KILL "$reader"
wait "$reader" 2>/dev/null || true
[ -n "$(ls "$WORK/data/.trainbench.readers/")" ] || fail "the killed reader's mark is not there"
expect_exit 0 clean2.out "$TB" clean "${d[@]}" --yes
contains clean2.out "clean: removed $files dataset objects"
[ ! -e "$WORK/data" ] || [ -z "$(find "$WORK/data" -mindepth 1)" ] ||
  fail "left after clean: $(find "$WORK/data")"
echo "PASS: clean_while_read ($checks checks)"
