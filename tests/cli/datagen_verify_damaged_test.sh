#!/usr/bin/env bash
# A file that `datagen --verify` finds damaged is named with the way out (--replace), and
# `--verify --replace` rewrites it: the next verify passes.
source "$(dirname "$0")/../lib/common.sh"
w=(resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=5
  "dataset.data_folder=$WORK/d" --no-progress)
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}"
f=$WORK/d/train/img_0_of_2.tfrecord
printf 'XXXXXXXX' | dd of="$f" bs=1 seek=2000 conv=notrunc 2>/dev/null
expect_exit 1 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" --verify
contains "$WORK/out" "$f: bad TFRecord"
contains "$WORK/out" "the file is damaged: \`trainbench datagen --verify --replace\` with the same settings rewrites it"
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" --verify --replace
contains "$WORK/out" "--replace: rewriting it"
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" --verify
contains "$WORK/out" "verify: 2 files OK"
done_ok
