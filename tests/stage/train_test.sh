#!/usr/bin/env bash
# train --data URL --stage-to DIR through the stager. Without LibTorch (the binary alone in
# a folder of its own, so whatever this build has, the plugin is not beside it) it is refused
# before anything is fetched; usage errors too. With a stand-in plugin beside the copy
# (stand_in_train_plugin.cc: no LibTorch, it sleeps instead of training): a tar of class
# folders (one of them a nested class tar, as ImageNet's) is extracted into DIR as it
# downloads, the origin serves it once; a training that fails still writes the job's time
# account, marked failed with the reason, which `stage --report` counts as a failed job with
# its transfer time; a training that succeeds has its line last on stdout, compute_s in the
# account, and the campaign a successful job with compute hours.
# (tests/torch/train_stage_test.sh trains for real.)
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers

mkdir -p "$WORK/bin"
cp "$TRAINBENCH" "$WORK/bin/trainbench"
TB=$WORK/bin/trainbench

name=train-$$.tar
at_exit 'rm -f "$STAGE_WWW/$name"'
stage_make_class_tar "$STAGE_WWW/$name" "$WORK/src"
size=$(stat -c %s "$STAGE_WWW/$name")

# Usage errors, before anything is fetched.
mark=$(stage_log_mark)
expect_exit 2 "$WORK/u1" "$TB" train --data "$STAGE_ORIGIN/imagenet/" --allow-cpu
contains "$WORK/u1" "add --stage-to DIR"
expect_exit 2 "$WORK/u2" "$TB" train --stage-to "$WORK/u" --allow-cpu
contains "$WORK/u2" "give --data URL"
expect_exit 2 "$WORK/u3" "$TB" train --data synthetic --s3-option region=x --allow-cpu
contains "$WORK/u3" "--s3-option goes with --stage-to DIR"
expect_exit 2 "$WORK/u5" "$TB" train --data "$STAGE_ORIGIN/$name" --stage-to "$WORK/u" --interval 0.01
contains "$WORK/u5" "--interval 0.01: a time-series row takes at least 0.05 s"
expect_exit 2 "$WORK/u4" "$TB" train --data "$STAGE_ORIGIN/$name" --stage-to "$WORK/u" \
  --calibrate resnet50_h100
contains "$WORK/u4" "drop --stage-to"
check "nothing fetched for usage errors" [ "$(stage_origin_bytes_since "$mark" "/$name")" = 0 ]

# No LibTorch: refused before anything is fetched, not after the whole dataset came.
expect_exit 1 "$WORK/out0" "$TB" train --data "$STAGE_ORIGIN/$name" --stage-to "$WORK/dest0" \
  --output "$WORK/results0" --stage-streams 2 --allow-cpu --device cpu
cat "$WORK/out0"
contains "$WORK/out0" "needs LibTorch"
check "nothing fetched without LibTorch" [ "$(stage_origin_bytes_since "$mark" "/$name")" = 0 ]
check "nothing staged without LibTorch" [ -z "$(ls -A "$WORK/dest0" 2>/dev/null)" ]

if [ -z "${TRAINBENCH_STAND_IN_PLUGIN:-}" ]; then
  echo "no stand-in plugin (TRAINBENCH_STAND_IN_PLUGIN; ctest sets it): the staged paths are not run"
  done_ok
  exit 0
fi
mkdir -p "$WORK/bin2"
cp "$TRAINBENCH" "$WORK/bin2/trainbench"
cp "$TRAINBENCH_STAND_IN_PLUGIN" "$WORK/bin2/libtrainbench_train.so"

# A training that fails after the stage: the job still writes its time account, marked failed.
mark=$(stage_log_mark)
t0=$(now)
TRAINBENCH_STAND_IN_FAIL=1 expect_exit 1 "$WORK/out1" "$WORK/bin2/trainbench" train \
  --data "$STAGE_ORIGIN/$name" --stage-to "$WORK/dest" --output "$WORK/results" --stage-streams 2 \
  --allow-cpu --device cpu
secs=$(elapsed "$t0")
cat "$WORK/out1"
contains "$WORK/out1" "asked to fail"
check "class folder staged" diff -r "$WORK/dest/n01" "$WORK/src/n01"
check "nested class tar extracted" diff -r "$WORK/dest/n02" "$WORK/src/n02"
check "no copy of the archive" [ ! -e "$WORK/dest/$name" ]
check "the origin served the tar once" [ "$(stage_origin_bytes_since "$mark" "/$name")" = "$size" ]
summary=$(stage_summary_of "$WORK/out1")
check "a train job's folder" [ "$(basename "$(dirname "$summary")" | cut -d- -f1)" = train ]
check "marked failed, with the reason, the bytes and the transfer time" \
  [ "$(json "$summary" "not d['complete'] and 'asked to fail' in d['stop_reason'] and d['bytes'] == $size and d['transfer_s'] > 0")" = True ]
stage_check_job_account "$summary" "$secs"

# The campaign table: one job, failed, with its transfer time.
stage_check_campaign "$TB" "$WORK/results" 'c["jobs"] == 1 and c["failed"] == 1 and c["transfer_hours"] > 0'

mark=$(stage_log_mark)
t0=$(now)
code=0
TRAINBENCH_STAND_IN_SECONDS=0.5 "$WORK/bin2/trainbench" train --data "$STAGE_ORIGIN/$name" \
  --stage-to "$WORK/dest2" --output "$WORK/results" --allow-cpu --device cpu --interval 0.05 \
  >"$WORK/out2" 2>"$WORK/err2" || code=$?
secs=$(elapsed "$t0")
cat "$WORK/out2" "$WORK/err2"
check "exit 0" [ "$code" = 0 ]
check "staged again" diff -r "$WORK/dest2/n02" "$WORK/src/n02"
check "the origin served it once more" [ "$(stage_origin_bytes_since "$mark" "/$name")" = "$size" ]
check "the training's line is last" [ "$(json_last_line "$WORK/out2" 'd["trainbench"]["data"]')" = "$WORK/dest2" ]
summary=$(stage_summary_of "$WORK/out2")
check "complete, its compute counted" [ "$(json "$summary" 'd["complete"] and 0.5 <= d["compute_s"] < 10')" = True ]
# The stage's MB/s is over the stage's own time, not the training's too; its streams show in
# the time series though the transfer is shorter than an interval (issue 46.18).
check "MB/s over the stage's time, streams busy in the series" "$PY" - "$summary" <<'PY'
import csv, json, os, sys
s = json.load(open(sys.argv[1]))
stage_s = s["wall_s"] - s["compute_s"]
assert abs(s["MB_per_second"] - s["bytes"] / 1e6 / stage_s) <= 1e-6 * s["MB_per_second"], s
rows = list(csv.DictReader(open(os.path.join(os.path.dirname(sys.argv[1]), "timeseries.csv"))))
busy = [int(float(r["reads_in_flight"])) for r in rows]
assert rows and max(busy) >= 1, [(r["phase"], r["reads_in_flight"]) for r in rows]
PY
stage_check_job_account "$summary" "$secs"
stage_check_campaign "$TB" "$WORK/results" \
  'c["jobs"] == 2 and c["successful"] == 1 and c["compute_hours"] >= 0.5 / 3600'
done_ok
