#!/usr/bin/env bash
# DLIO's workflow.generate_data: `run` writes (or finishes) the dataset first, then trains
# on it; a second run finds it complete and writes nothing.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
args=(resnet50_h100 "${TINY[@]}" workflow.generate_data=true reader.batch_size=4 train.computation_time=0.001)
"$TB" run "${args[@]}" --accelerators 2 >out.txt 2>err.txt || { cat err.txt; fail "run failed"; }
grep -q "workflow.generate_data: writing the dataset" err.txt || fail "no generation line: $(cat err.txt)"
grep -q "datagen: 4 files written, 0 already complete" err.txt || fail "did not generate 4 files"
[ -f "$WORK/data/trainbench_manifest.json" ] || fail "no manifest"
last_line_json out.txt line.json
[ "$(json line.json 'd["trainbench_metrics"]["requested_bytes"] > 0')" = True ] || fail "nothing read"
"$TB" run "${args[@]}" --accelerators 2 >out.txt 2>err.txt || { cat err.txt; fail "second run failed"; }
grep -q "datagen: 0 files written, 4 already complete" err.txt || fail "second run regenerated: $(cat err.txt)"
echo "PASS: run_generate_data_test.sh"
