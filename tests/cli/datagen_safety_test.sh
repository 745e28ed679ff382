#!/usr/bin/env bash
# datagen must not corrupt or mislead: one writer per dataset folder (two datagens with
# different seeds, raced in a loop, never leave a dataset that is not exactly one seed's),
# no files of a larger earlier dataset left behind, and no start when the file system
# lacks the space the dataset needs.
source "$(dirname "$0")/../lib/common.sh"

w=(resnet50_h100 dataset.num_files_train=16 dataset.num_samples_per_file=40
   dataset.record_length_bytes=100000 dataset.record_length_bytes_stdev=0)

# The reference: seed 2 written alone.
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" dataset.data_folder="$WORK/ref" train.seed=2 --no-progress

# 1. Concurrent datagens with different seeds, then the seed-2 one again with --verify: each
# try ends byte-identical to the reference, and a datagen that met the other one refused.
refused=0
for try in 1 2 3 4; do
  d=$WORK/race$try
  for s in 1 2; do
    timeout 120 "$TRAINBENCH" datagen "${w[@]}" dataset.data_folder="$d" train.seed=$s \
      --no-progress >"$WORK/race$s.out" 2>&1 &
  done
  wait -n || true
  wait -n || true
  for s in 1 2; do
    if grep -q "is being written by another trainbench (pid [0-9]* on " "$WORK/race$s.out"; then
      refused=$((refused + 1))
    fi
  done
  set +e
  "$TRAINBENCH" datagen "${w[@]}" dataset.data_folder="$d" train.seed=2 --verify --no-progress \
    >"$WORK/after.out" 2>&1
  rc=$?
  set -e
  # A seed-1 dataset finished first is refused as "other settings" (exit 2); start over.
  if [ $rc = 2 ] && grep -q "other settings" "$WORK/after.out"; then
    rm -rf "$d"
    expect_exit 0 "$WORK/after.out" "$TRAINBENCH" datagen "${w[@]}" dataset.data_folder="$d" \
      train.seed=2 --verify --no-progress
  elif [ $rc != 0 ]; then
    cat "$WORK/after.out"; fail "try $try: follow-up datagen exited $rc"
  fi
  for f in $(cd "$WORK/ref" && find train valid -type f | sort); do
    cmp -s "$WORK/ref/$f" "$d/$f" || fail "try $try: $f differs from seed 2's"
  done
  check "try $try: no extra files" test "$(find "$d/train" -type f | wc -l)" -eq 16
done
echo "races: $refused datagens refused a folder in use"

# The refusal itself, deterministically: the folder's lock held by another process.
d=$WORK/held
mkdir -p "$d"
echo "pid 4242 on otherhost" >"$d/.trainbench.lock"
flock -o "$d/.trainbench.lock" sleep 30 &
holder=$!
sleep 0.5
expect_exit 1 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" dataset.data_folder="$d" --no-progress
contains "$WORK/out" "the dataset at '$d' is being written by another trainbench (pid 4242 on otherhost)"
check "nothing written while locked" test ! -d "$d/train"
kill $holder
wait $holder 2>/dev/null || true
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" dataset.data_folder="$d" --no-progress

# 2. A smaller dataset into the same folder removes the files of the larger one that it does
# not have; a file trainbench did not write stays, named in a warning.
d=$WORK/shrink
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" dataset.num_files_train=8 dataset.data_folder="$d" --no-progress
echo mine >"$d/train/notes.txt"
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" dataset.num_files_train=4 dataset.data_folder="$d" --no-progress
# Names carry the count (img_1_of_8), so all 8 files go, with their 8 DALI indexes.
contains "$WORK/out" "removed 16 files of the earlier dataset"
contains "$WORK/out" "1 file under $d is not trainbench's and was left alone"
check "4 tfrecords left" test "$(ls "$d/train" | grep -c tfrecord)" -eq 4
check "the user's file stays" test -f "$d/train/notes.txt"
rm "$d/train/notes.txt"
expect_exit 0 "$WORK/out" "$TRAINBENCH" run "${w[@]}" dataset.num_files_train=4 dataset.data_folder="$d" \
  train.epochs=1 train.computation_time=0 reader.batch_size=4
contains "$WORK/out" "160 samples"

# 3. A dataset larger than the free space is refused before anything is written.
d=$WORK/huge
expect_exit 2 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" dataset.num_files_train=100000 \
  dataset.record_length_bytes=100000000 dataset.data_folder="$d" --no-progress --output "$WORK/refused/res"
contains "$WORK/out" "need 400000000000000 bytes (400.00 TB) but $d has"
contains "$WORK/out" "--force"
check "no file written" test -z "$(find "$d" -name '*.tfrecord' 2>/dev/null)"
# Refused before work: no results folder that would pass for a datagen (issue 46.19).
check "no results left: $(find "$WORK/refused" 2>/dev/null | tr '\n' ' ')" test ! -e "$WORK/refused"
# 4. A run on a dataset of other settings suggests a datagen; that very command works.
d=$WORK/other
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" dataset.num_files_train=4 dataset.data_folder="$d" --no-progress
expect_exit 1 "$WORK/out" "$TRAINBENCH" run "${w[@]}" dataset.num_files_train=4 dataset.data_folder="$d" \
  dataset.record_length_bytes=50000 train.epochs=1 train.computation_time=0 reader.batch_size=4
suggested=$(grep -o 'trainbench datagen [^`]*--replace' "$WORK/out") || fail "no datagen suggested: $(cat "$WORK/out")"
echo "suggested: $suggested"
# The suggestion quotes its arguments for a shell: run it as a user would paste it.
(cd "$SRC" && eval "\"\$TRAINBENCH\" ${suggested#trainbench } --no-progress") >"$WORK/out" 2>&1 ||
  fail "the suggested datagen failed: $(cat "$WORK/out")"
contains "$WORK/out" "--replace: removed the 8 files"
expect_exit 0 "$WORK/out" "$TRAINBENCH" run "${w[@]}" dataset.num_files_train=4 dataset.data_folder="$d" \
  dataset.record_length_bytes=50000 train.epochs=1 train.computation_time=0 reader.batch_size=4
echo "datagen_safety: $checks checks passed"
