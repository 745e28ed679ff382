#!/usr/bin/env bash
# A ResNet-50 run with 16 emulated accelerators in one process passes AU, and writes the
# results folder (config.yaml, summary.json, epochs.csv, log) and the metrics JSON line.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=2 train.computation_time=0.02 \
  train.epochs=2 --accelerators 16 >out.txt 2>err.txt || { cat err.txt; fail "run failed"; }
last_line_json out.txt line.json
[ "$(json line.json 'd["trainbench_metrics"]["passed"]')" = True ] || fail "AU did not pass: $(cat line.json)"
[ "$(json line.json 'd["trainbench_metrics"]["accelerators"]')" = 16 ] || fail "accelerators"
python3 - line.json <<'PY' || fail "metrics line fields"
import json, sys
m = json.load(open(sys.argv[1]))["trainbench_metrics"]
for k in ["workload", "accelerators", "epochs", "au_percentage", "passed", "samples_per_second",
          "io_mb_per_second", "io_mib_per_second", "device_read_bytes", "requested_bytes"]:
    assert k in m, k
assert m["au_percentage"] >= 90, m
assert set(m["read_latency_ms"]) == {"p50", "p90", "p99", "p999", "max"}
lat = m["read_latency_ms"]
assert 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["p999"] <= lat["max"], lat
assert abs(m["io_mb_per_second"] * 1e6 - m["io_mib_per_second"] * 2**20) < 1e-3 * m["io_mb_per_second"] * 1e6
PY
dir=$(results_dir)
for f in config.yaml summary.json epochs.csv trainbench.log; do
  [ -s "$dir/$f" ] || fail "missing $dir/$f"
done
# 400 samples / (batch 2 x 16 accelerators) = 12 steps per epoch (the remainder is dropped),
# enough for an AU verdict (9).
[ "$(json "$dir/summary.json" 'd["steps_per_epoch"]')" = 12 ] || fail "steps_per_epoch"
[ "$(json "$dir/summary.json" 'd["phases"][0]["samples"]')" = 384 ] || fail "samples per epoch"
[ "$(json "$dir/summary.json" 'd["metric"]["train_au_meet_expectation"]')" = success ] || fail "meet expectation"
[ "$(json "$dir/summary.json" 'len(d["metric"]["train_au_percentage"])')" = 2 ] || fail "per-epoch AU"
[ "$(wc -l <"$dir/epochs.csv")" = 3 ] || fail "epochs.csv rows"
grep -q "computation_time: 0.02" "$dir/config.yaml" || fail "config.yaml is not the resolved config"
[ "$(json "$dir/summary.json" 'd["seed"]')" = 123 ] || fail "summary lacks train.seed"
[ "$(json "$dir/summary.json" 'isinstance(d["random_shuffle_seed"], int)')" = True ] || fail "random_shuffle_seed"
grep -q "epoch 2/2" "$dir/trainbench.log" || fail "log lacks epoch lines"
grep -q "AU" out.txt || fail "no table on stdout"

# Without the barrier, and with a compute time far above the reads, AU passes too; with
# a compute time of zero, AU is not meaningful (exit 0: it measured).
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=2 train.computation_time=0.02 \
  train.epochs=1 --accelerators 16 --no-barrier >out2.txt 2>/dev/null || fail "no-barrier run"
last_line_json out2.txt line2.json
[ "$(json line2.json 'd["trainbench_metrics"]["passed"]')" = True ] || fail "no-barrier AU: $(cat line2.json)"
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=4 train.computation_time=0 \
  train.epochs=1 --accelerators 16 >out3.txt 2>/dev/null || fail "zero-compute run"
last_line_json out3.txt line3.json
# With no compute there is no AU to judge: passed is null and the table says so.
[ "$(json line3.json 'd["trainbench_metrics"]["passed"]')" = None ] || fail "AU with no compute: $(cat line3.json)"
grep -q "AU: not meaningful with train.computation_time=0" out3.txt || fail "no 'not meaningful' line"
echo OK
