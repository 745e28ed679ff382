#!/usr/bin/env bash
# `trainbench clean` on a file system: without --yes it lists and removes nothing; with it,
# every file of the dataset goes and the folders trainbench made are removed; --checkpoints
# removes the checkpoint folder's files instead.
source "$(dirname "$0")/lib/run_common.bash"
make_tiny_dataset
before=$(find "$WORK/data" -type f | wc -l)
[ "$before" -gt 4 ] || fail "datagen wrote $before files"
"$TB" clean resnet50_h100 "${TINY[@]}" >list.txt 2>&1 || fail "clean (list): $(cat list.txt)"
grep -q "would remove $before dataset objects" list.txt || fail "clean listing: $(cat list.txt)"
[ "$(find "$WORK/data" -type f | wc -l)" = "$before" ] || fail "clean without --yes removed files"
mkdir -p "$WORK/ckpt/a" && echo x >"$WORK/ckpt/a/model.pt"
"$TB" clean resnet50_h100 "${TINY[@]}" "checkpoint.checkpoint_folder=$WORK/ckpt" --checkpoints \
  --yes >ck.txt 2>&1 || fail "clean --checkpoints: $(cat ck.txt)"
[ ! -e "$WORK/ckpt/a/model.pt" ] || fail "the checkpoint file remains"
[ "$(find "$WORK/data" -type f | wc -l)" = "$before" ] || fail "clean --checkpoints touched the dataset"
"$TB" clean resnet50_h100 "${TINY[@]}" --yes >yes.txt 2>&1 || fail "clean --yes: $(cat yes.txt)"
grep -q "removed $before dataset objects" yes.txt || fail "clean --yes: $(cat yes.txt)"
[ "$(find "$WORK/data" -mindepth 1 | wc -l)" = 0 ] || fail "left behind: $(find "$WORK/data" -mindepth 1)"
"$TB" clean resnet50_h100 "${TINY[@]}" >none.txt 2>&1 || fail "clean of nothing"
grep -q "no dataset objects" none.txt || fail "clean of nothing: $(cat none.txt)"
echo OK
