#!/usr/bin/env bash
# `trainbench clean` on a file system: without --yes it lists and removes nothing; with it,
# the files the manifest names go and the folders trainbench made are removed; --checkpoints
# removes checkpoint files instead. What trainbench did not write is listed as foreign and
# kept, and a folder with no trainbench dataset is refused (exit 2) with nothing removed.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# A folder of a user's own files (a typo in data_folder): refused, nothing removed.
mkdir -p "$WORK/mine/photos" && echo thesis >"$WORK/mine/thesis.txt" && echo jpg >"$WORK/mine/photos/a.jpg"
set +e
"$TB" clean resnet50_h100 "dataset.data_folder=$WORK/mine" --yes >mine.txt 2>&1
code=$?
set -e
[ "$code" = 2 ] || fail "clean of a folder with no dataset: exit $code, not 2: $(cat mine.txt)"
grep -q "no trainbench dataset" mine.txt || fail "refusal does not say why: $(cat mine.txt)"
[ -f "$WORK/mine/thesis.txt" ] && [ -f "$WORK/mine/photos/a.jpg" ] || fail "clean removed a user's files"
set +e
"$TB" clean resnet50_h100 "checkpoint.checkpoint_folder=$WORK/mine" --checkpoints --yes >mine2.txt 2>&1
code=$?
set -e
[ "$code" = 2 ] || fail "clean --checkpoints of a user's folder: exit $code: $(cat mine2.txt)"
[ -f "$WORK/mine/thesis.txt" ] || fail "clean --checkpoints removed a user's file"

make_tiny_dataset
before=$(find "$WORK/data" -type f | wc -l)
[ "$before" -gt 4 ] || fail "datagen wrote $before files"
# A user's file beside the dataset, in a folder of its own and in train/.
mkdir -p "$WORK/data/notes" && echo mine >"$WORK/data/notes/todo.txt" && echo mine >"$WORK/data/train/README"
"$TB" clean resnet50_h100 "${TINY[@]}" >list.txt 2>&1 || fail "clean (list): $(cat list.txt)"
grep -q "would remove $before dataset objects" list.txt || fail "clean listing: $(cat list.txt)"
grep -q "foreign, kept: .*todo.txt" list.txt || fail "listing does not show the foreign file: $(cat list.txt)"
[ "$(find "$WORK/data" -type f | wc -l)" = $((before + 2)) ] || fail "clean without --yes removed files"
# Checkpoints trainbench wrote (llama3_8b scaled down, 2 checkpoints), a user's .pt beside
# them in a checkpoint's folder and a plan at the top: only what the checkpoints' records
# name goes.
small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" "checkpoint.checkpoint_folder=$WORK/ckpt"
  checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=1)
"$TB" run llama3_8b "${small[@]}" --no-progress >ckrun.txt 2>&1 || fail "checkpoint run: $(cat ckrun.txt)"
written=$(find "$WORK/ckpt" -type f | wc -l)
[ "$written" -ge 4 ] || fail "the checkpoint run wrote $written files"
echo mine >"$WORK/ckpt/global_epoch1_step1/other.pt"
echo mine >"$WORK/ckpt/plan.txt"
"$TB" clean llama3_8b "${small[@]}" --checkpoints --yes >ck.txt 2>&1 || fail "clean --checkpoints: $(cat ck.txt)"
grep -q "removed $written checkpoint objects" ck.txt || fail "clean --checkpoints: $(cat ck.txt)"
grep -q "2 objects trainbench did not write are left alone" ck.txt || fail "clean --checkpoints: $(cat ck.txt)"
left=$(cd "$WORK/ckpt" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "./global_epoch1_step1 ./global_epoch1_step1/other.pt ./plan.txt " ] ||
  fail "clean --checkpoints left: $left"
[ "$(find "$WORK/data" -type f | wc -l)" = $((before + 2)) ] || fail "clean --checkpoints touched the dataset"
# A folder of checkpoints trainbench never wrote, in DLIO's and DeepSpeed's names: refused,
# nothing removed.
mkdir -p "$WORK/theirs/global_epoch1_step1" "$WORK/theirs/global_step100"
echo x >"$WORK/theirs/global_epoch1_step1/zero_pp_rank_0_mp_rank_00_model_states.pt"
echo x >"$WORK/theirs/global_step100/mp_rank_00_model_states.pt" && echo x >"$WORK/theirs/model.pt"
set +e
"$TB" clean llama3_8b "checkpoint.checkpoint_folder=$WORK/theirs" --checkpoints --yes >theirs.txt 2>&1
code=$?
set -e
[ "$code" = 2 ] || fail "clean --checkpoints of checkpoints trainbench did not write: exit $code: $(cat theirs.txt)"
grep -q "3 objects .* but no trainbench checkpoints" theirs.txt || fail "refusal: $(cat theirs.txt)"
[ "$(find "$WORK/theirs" -type f | wc -l)" = 3 ] || fail "clean --checkpoints removed a file it did not write"
"$TB" clean resnet50_h100 "${TINY[@]}" --yes >yes.txt 2>&1 || fail "clean --yes: $(cat yes.txt)"
grep -q "removed $before dataset objects" yes.txt || fail "clean --yes: $(cat yes.txt)"
grep -q "2 objects trainbench did not write are left alone" yes.txt || fail "clean --yes: $(cat yes.txt)"
left=$(cd "$WORK/data" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "./notes ./notes/todo.txt ./train ./train/README " ] || fail "left behind: $left"
rm -r "$WORK/data/notes" "$WORK/data/train"
"$TB" clean resnet50_h100 "${TINY[@]}" >none.txt 2>&1 || fail "clean of nothing"
grep -q "no dataset objects" none.txt || fail "clean of nothing: $(cat none.txt)"
echo OK
