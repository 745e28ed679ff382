#!/usr/bin/env bash
# train --data TAR --stage-to DIR with LibTorch: the tar (class folders, one a nested class
# tar) is staged through the stager and extracted into DIR, a small ResNet trains on DIR on
# the CPU, the training's JSON line stays the last line on stdout, and the job's account
# (transfer, verify, extract and compute shares adding up to its wall time) is written where
# `stage --report` counts it as a successful job with compute hours. Registered only in
# builds with LibTorch (tests/CMakeLists.txt); tests/stage/train_test.sh covers the rest.
source "$(dirname "$0")/../lib/common.sh"

stage_make_class_tar "$WORK/classes.tar" "$WORK/src"
t0=$(now)
code=0
"$TRAINBENCH" train --data "$WORK/classes.tar" --stage-to "$WORK/dest" --output "$WORK/results" \
  --model resnet18 --batch-size 2 --steps-per-epoch 2 --warmup-steps 0 --epochs 1 \
  --image-size 32 --workers 1 --threads 2 --allow-cpu --device cpu --interval 0.05 \
  >"$WORK/out" 2>"$WORK/err" || code=$?
secs=$(elapsed "$t0")
cat "$WORK/out" "$WORK/err"
check "exit 0" [ "$code" = 0 ]
check "staged class folder" diff -r "$WORK/dest/n01" "$WORK/src/n01"
check "staged nested class tar" diff -r "$WORK/dest/n02" "$WORK/src/n02"
check "the training's line is last" [ "$(json_last_line "$WORK/out" '"radix_metrics" in d')" = True ]
check "it trained on the staged folder" [ "$(json_last_line "$WORK/out" 'd["trainbench"]["data"].rstrip("/").endswith("/dest")')" = True ]
summary=$(stage_summary_of "$WORK/out")
check "complete, its compute counted" [ "$(json "$summary" 'd["complete"] and d["compute_s"] > 0')" = True ]
stage_check_job_account "$summary" "$secs"
stage_check_campaign "$TRAINBENCH" "$WORK/results" 'c["successful"] == 1 and c["compute_hours"] > 0'
# One time series across the job: the staging's bytes, then the training's images (its
# timed steps: 2 of batch 2), the last row "done".
check "the job's time series" "$PY" - "$(dirname "$summary")" "$(stat -c %s "$WORK/classes.tar")" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/timeseries.csv")))
area = lambda col: sum(float(r[col]) * float(r["interval_s"]) for r in rows)
assert abs(area("io_MB_per_second") * 1e6 - int(sys.argv[2])) <= 0.01 * int(sys.argv[2]) + 1, rows
assert round(area("samples_per_second")) == 4, area("samples_per_second")
assert "train" in [r["phase"] for r in rows] and rows[-1]["phase"] == "done", rows
PY
# Plain training with --output keeps results too: summary.json holds the JSON line's figures.
"$TRAINBENCH" train --model resnet18 --batch-size 2 --steps-per-epoch 3 --warmup-steps 0 \
  --image-size 32 --threads 2 --allow-cpu --device cpu --interval 0.05 --output "$WORK/plain" \
  >"$WORK/plain.out" 2>&1 || { cat "$WORK/plain.out"; fail "train --output"; }
check "train --output: summary and time series" "$PY" - "$(ls -d "$WORK"/plain/train-*)" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["radix_metrics"] and s["timeseries_interval_s"] == 0.05, s
rows = list(csv.DictReader(open(sys.argv[1] + "/timeseries.csv")))
assert round(sum(float(r["samples_per_second"]) * float(r["interval_s"]) for r in rows)) == 6, rows
PY
done_ok
