#!/usr/bin/env bash
# `trainbench report --check-replication`: five runs of one configuration over a cached
# dataset pass (every AU passes, samples/s within 5% of each other; exit 0); a doctored run
# whose throughput is 20% higher, one whose AU failed, a run of another configuration and
# four runs each fail (exit 1) saying why.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
dirs=()
# 50 ms steps: a loaded machine's timer and read delays stay well under 5% of a step.
for i in 1 2 3 4 5; do
  quick_run "r$i" 4 train.computation_time=0.05
  dirs+=("$WORK/runs/r$i")
done
"$TB" report --check-replication "${dirs[@]}" >pass.txt 2>&1 || { cat pass.txt; fail "five runs did not replicate"; }
contains pass.txt "replication: PASS"
contains pass.txt "the benchmark result"
[ ! -e "${dirs[0]}/report.html" ] || fail "--check-replication alone wrote a page"

# doctor DIR PYTHON: a copy of run 5 with its summary.json changed by PYTHON (over `s`).
doctor() {
  rm -rf "$WORK/runs/$1"
  cp -r "${dirs[4]}" "$WORK/runs/$1"
  $PY - "$WORK/runs/$1/summary.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(s, open(sys.argv[1], "w"), indent=2)
PY
}
doctor fast 's["metric"]["train_throughput_mean_samples_per_second"] *= 1.2'
expect_exit 1 fast.txt "$TB" report --check-replication "${dirs[@]:0:4}" "$WORK/runs/fast"
contains fast.txt "replication: FAIL"
contains fast.txt "exceeds 5%"
doctor slowau 's["passed"] = False; s["metric"]["train_au_mean_percentage"] = 71.5'
expect_exit 1 au.txt "$TB" report --check-replication "${dirs[@]:0:4}" "$WORK/runs/slowau"
contains au.txt "AU 71.50% is below the 90% target"
doctor other 's["num_accelerators"] = 8'
expect_exit 1 other.txt "$TB" report --check-replication "${dirs[@]:0:4}" "$WORK/runs/other"
contains other.txt "is not a replica of run 1: num_accelerators is 8"
expect_exit 1 four.txt "$TB" report --check-replication "${dirs[@]:0:4}"
contains four.txt "4 runs given"
done_ok
