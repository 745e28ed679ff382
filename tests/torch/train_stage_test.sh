#!/usr/bin/env bash
# train --data TAR --stage-to DIR with LibTorch: the tar (class folders, one a nested class
# tar) is staged through the stager and extracted into DIR, a small ResNet trains on DIR on
# the CPU, the training's JSON line stays the last line on stdout, and the job's account
# (transfer, verify, extract and compute shares adding up to its wall time) is written where
# `stage --report` counts it as a successful job with compute hours. Registered only in
# builds with LibTorch (tests/CMakeLists.txt); tests/stage/train_test.sh covers the rest.
source "$(dirname "$0")/../stage/lib.sh"

make_class_tar "$WORK/classes.tar" "$WORK/src"
t0=$(now)
code=0
"$TRAINBENCH" train --data "$WORK/classes.tar" --stage-to "$WORK/dest" --output "$WORK/results" \
  --model resnet18 --batch-size 2 --steps-per-epoch 2 --warmup-steps 0 --epochs 1 \
  --image-size 32 --workers 1 --threads 2 --allow-cpu --device cpu \
  >"$WORK/out" 2>"$WORK/err" || code=$?
secs=$(elapsed "$t0")
cat "$WORK/out" "$WORK/err"
check "exit 0" [ "$code" = 0 ]
check "staged class folder" diff -r "$WORK/dest/n01" "$WORK/src/n01"
check "staged nested class tar" diff -r "$WORK/dest/n02" "$WORK/src/n02"
check "the training's line is last" [ "$(line_get "$WORK/out" '"radix_metrics" in j')" = True ]
check "it trained on the staged folder" [ "$(line_get "$WORK/out" 'j["trainbench"]["data"].rstrip("/").endswith("/dest")')" = True ]
summary=$(summary_of "$WORK/out")
check "complete, its compute counted" [ "$(json_get "$summary" 'j["complete"] and j["compute_s"] > 0')" = True ]
check_job_account "$summary" "$secs"
check_campaign "$TRAINBENCH" "$WORK/results" 'c["successful"] == 1 and c["compute_hours"] > 0'
done_ok
