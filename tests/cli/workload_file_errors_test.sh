#!/usr/bin/env bash
# A workload file's mistakes are usage errors (exit 2) that name the file, the line and the
# way out: an empty file is no workload, a key given twice in one map names both lines (YAML
# forbids it; the last would win silently), and a misspelt group gets its nearest name.
source "$(dirname "$0")/../lib/common.sh"
: >"$WORK/empty.yaml"
expect_exit 2 "$WORK/out" "$TRAINBENCH" config "$WORK/empty.yaml"
contains "$WORK/out" "$WORK/empty.yaml: empty (no keys)"
printf '# only a comment\n' >"$WORK/comment.yaml"
expect_exit 2 "$WORK/out" "$TRAINBENCH" run "$WORK/comment.yaml"
contains "$WORK/out" "comment.yaml: empty (no keys)"
printf 'dataset:\n  num_files_train: 4\n  format: npz\n  num_files_train: 8\n' >"$WORK/dup.yaml"
expect_exit 2 "$WORK/out" "$TRAINBENCH" config "$WORK/dup.yaml"
contains "$WORK/out" "dup.yaml:4: key 'dataset.num_files_train' appears twice in one map (lines 2 and 4)"
printf 'datasett:\n  num_files_train: 4\n' >"$WORK/typo.yaml"
expect_exit 2 "$WORK/out" "$TRAINBENCH" config "$WORK/typo.yaml"
contains "$WORK/out" "typo.yaml:1: unknown key 'datasett' (did you mean 'dataset'?)"
# A resolved config written by `trainbench config` loads again.
"$TRAINBENCH" config resnet50_h100 >"$WORK/mine.yaml"
expect_exit 0 "$WORK/out" "$TRAINBENCH" config "$WORK/mine.yaml"
done_ok
