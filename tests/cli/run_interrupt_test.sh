#!/usr/bin/env bash
# Ctrl-C (SIGINT) mid-run stops cleanly: exit 130, and the results folder holds what was
# measured, marked incomplete (with either read engine).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
for engine in pread uring; do
  "$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=16 train.computation_time=0.1 \
    train.epochs=50 --accelerators 2 --io-engine "$engine" >out.txt 2>err.txt &
  pid=$!
  wait_for_start err.txt
  sleep 1
  kill -INT "$pid"
  rc=0
  wait "$pid" || rc=$?
  [ "$rc" = 130 ] || { cat err.txt; fail "$engine: exit code $rc, expected 130"; }
  last_line_json out.txt line.json
  [ "$(json line.json 'd["trainbench_metrics"]["complete"]')" = False ] || fail "line not incomplete"
  python3 - "$(results_dir)/summary.json" <<'PY' || fail "$engine: partial summary"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False and d["stop_reason"] == "interrupted", d["stop_reason"]
phases = d["phases"]
assert phases and phases[-1]["complete"] is False, phases
assert phases[-1]["samples"] < 12 * 32, phases[-1]  # stopped inside an epoch
assert d["read_latency_ms"]["count"] > 0
PY
  grep -q "INCOMPLETE" out.txt || fail "$engine: table does not say incomplete"
done
echo OK
