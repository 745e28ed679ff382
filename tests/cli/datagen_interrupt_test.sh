#!/usr/bin/env bash
# Interrupted datagen (Ctrl-C, then kill -9) leaves no partial file under a final
# name, exits 130 with a clear message (as docs/commands.md says), and a re-run finishes with
# files identical to an uninterrupted run.
source "$(dirname "$0")/../lib/common.sh"

args=(resnet50_h100 dataset.num_files_train=24 dataset.num_samples_per_file=200 --threads 2)
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${args[@]}" dataset.data_folder="$WORK/ref"

# Ctrl-C (SIGINT) part-way.
"$TRAINBENCH" datagen "${args[@]}" dataset.data_folder="$WORK/int" >"$WORK/int.out" 2>&1 &
pid=$!
for _ in $(seq 200); do
  n=$(find "$WORK/int/train" -name '*.tfrecord' 2>/dev/null | wc -l) || true
  [ "$n" -ge 2 ] && break
  sleep 0.02
done
kill -INT "$pid" 2>/dev/null || true
code=0
wait "$pid" || code=$?
# The signal lands within 20 ms of the second file of 24: the run cannot have finished.
check "interrupted datagen exits 130 (got $code)" test "$code" -eq 130
contains "$WORK/int.out" "datagen interrupted"
# docs/commands.md's datagen section gives that exit status for Ctrl-C.
sed -n '/^## `trainbench datagen/,/^## /p' "$SRC/docs/commands.md" | tr '\n' ' ' | tr -s ' ' >"$WORK/doc"
contains "$WORK/doc" "Ctrl-C (exit $code)"
contains "$WORK/int.out" "re-run the same command to finish"
check "no temporary files left" test -z "$(partial_files "$WORK/int")"
check "no manifest for an incomplete dataset" test ! -f "$WORK/int/trainbench_manifest.json"
check "the interrupt stopped it short" test "$(ls "$WORK/int/train" | wc -l)" -lt 24
# Every file under a final name is complete: identical to the reference.
for f in "$WORK"/int/train/*.tfrecord; do
  check "$(basename "$f") complete" cmp -s "$f" "$WORK/ref/train/$(basename "$f")"
done
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${args[@]}" dataset.data_folder="$WORK/int"
contains "$WORK/out" "already complete"
check "re-run after Ctrl-C gives identical files" diff -r "$WORK/ref/train" "$WORK/int/train"

# kill -9: no handler runs; temporary files may remain, and the re-run cleans them up.
"$TRAINBENCH" datagen "${args[@]}" dataset.data_folder="$WORK/kill" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
  n=$(find "$WORK/kill/train" -name '*.tfrecord' 2>/dev/null | wc -l) || true
  [ "$n" -ge 3 ] && break
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" || true
for f in "$WORK"/kill/train/*.tfrecord; do
  [ -e "$f" ] || continue
  check "$(basename "$f") complete after kill -9" cmp -s "$f" "$WORK/ref/train/$(basename "$f")"
done
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${args[@]}" dataset.data_folder="$WORK/kill" --verify
check "re-run after kill -9 gives identical files" diff -r "$WORK/ref/train" "$WORK/kill/train"
check "no temporary files after the re-run" test -z "$(partial_files "$WORK/kill")"
check "journal removed once complete" test ! -f "$WORK/kill/.trainbench_manifest.journal"
done_ok
