#!/usr/bin/env bash
# A comparison of runs of different workloads says so, on the terminal and on the page; runs
# of one workload get no such warning.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
quick_run a
quick_run b
# The same settings under another workload name (a file's name is its workload's).
"$TB" config resnet50_h100 >"$WORK/other.yaml"
"$TB" run "$WORK/other.yaml" "${TINY[@]}" reader.batch_size=4 train.computation_time=0.02 \
  train.epochs=1 --accelerators 4 --no-progress >other.out 2>other.err || {
  cat other.err
  fail "run of other.yaml"
}
mv "$(results_dir)" "$WORK/runs/other"
"$TB" report "$WORK/runs/a" "$WORK/runs/b" -o same.html >same.out 2>&1 || { cat same.out; fail "report"; }
chromium_dump_dom "$WORK/same.html" same_dom.html
if grep -q "different workloads" same.out || grep -q 'id="different-workloads"' same_dom.html; then
  fail "a warning for one workload"
fi
checks=$((checks + 1))
"$TB" report "$WORK/runs/a" "$WORK/runs/other" -o mixed.html >mixed.out 2>&1 || {
  cat mixed.out
  fail "report"
}
contains mixed.out "warning: these runs are of different workloads (resnet50_h100, other)"
chromium_dump_dom "$WORK/mixed.html" dom.html
check "the page warns" grep -q 'id="different-workloads"[^>]*>these runs are of different workloads (resnet50_h100, other)' dom.html
done_ok
