#!/usr/bin/env bash
# sweep --find-max-accelerators against an S3 storage with a known limit: the suite's gateway
# behind fault_proxy.py --rate-mb L (every body, all connections together, at most L MB/s).
# Each accelerator asks D = batch x sample size / computation_time; AU >= 90% holds while
# N x D x 0.9 <= L, so the answer must be within 1 (or 5%) of floor(L / (0.9 D)), for two
# limits. The results folder holds every probe and the answer, and `report` draws it.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
s3_new_bucket sweep
at_exit "s3_remove_bucket $bucket"

# D = 1 x 200,000 B / 0.1 s = 2 MB/s per accelerator (large samples: fewer requests per MB
# through the proxy, whose per-request cost would otherwise lower the limit it sets).
base=(resnet50_h100 dataset.data_folder="s3://$bucket/r50" dataset.num_files_train=800
  dataset.num_samples_per_file=1 dataset.record_length_bytes=200000 dataset.record_length_bytes_stdev=0
  reader.batch_size=1 train.computation_time=0.1 train.epochs=1 output.folder="$WORK/results")
expect_exit 0 "$WORK/datagen.out" "$TB" datagen "${base[@]}" \
  storage.storage_options.endpoint_url="$S3_TEST_ENDPOINT" --no-progress

for limit in 12 24; do
  fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy-$limit.json" --rate-mb "$limit"
  out=$WORK/sweep-$limit.out
  expect_exit 0 "$out" "$TB" sweep "${base[@]}" storage.storage_options.endpoint_url="$FAULT_PROXY_ENDPOINT" \
    --find-max-accelerators --max 64 --no-progress
  fault_proxy_stop
  cat "$out"
  answer=$(json_last_line "$out" 'd["trainbench_sweep"]["answer_accelerators"]')
  want=$("$PY" -c "import math; print(math.floor($limit / (0.9 * 2.0)))")
  check "limit $limit MB/s: the answer $answer is within 1 (or 5%) of $want" "$PY" -c "
a, w = $answer, $want
assert abs(a - w) <= max(1, 0.05 * w), (a, w)"
  # At 12 MB/s the answer (6) runs at 100% AU and 7 at 85.7%: on a quiet host its repeats
  # agree. At 24 MB/s the answer (13 asks 26 MB/s) runs at 92.3% by the arithmetic, 2.3 points
  # over the target, and the proxy's pacing under the suite's load moves a full-length run by
  # about 3 points (CI, 2026-11-27: 13 passed 2 of 3, at 88.7, 92.1 and 93.1%). On a saturated
  # host the proxy, a Python process, paces below its cap at 12 MB/s too (CI, 2026-11-29,
  # beside the container build: a run at 6 got 10.1 MB/s of 12 with the host 98% busy, AU
  # 85.7%). Where the repeats disagree, the sweep must say so and blame the storage, not the
  # client; the answer itself is held to the arithmetic above.
  if [ "$(json_last_line "$out" 'd["trainbench_sweep"]["confirmed"]')" != True ]; then
    contains "$out" "the answer is not stable: "
    contains "$out" "storage-bound ("
    check "limit $limit MB/s: an unstable answer blames no client" \
      bash -c "! grep -q 'client-bound' '$out'"
  fi
  # The proxy's cap is the limit: the answer is the storage's, and says so.
  check "limit $limit MB/s: classified storage-bound" \
    test "$(json_last_line "$out" 'd["trainbench_sweep"]["limited_by"]')" = storage
  contains "$out" "this storage feeds $answer emulated accelerators"
  contains "$out" "mlpstorage training run --hosts"
  contains "$out" "--num-accelerators $answer"
done

folder=$(json_last_line "$out" 'd["trainbench"]["results"]')
s=$folder/summary.json
check "the sweep's summary: kind, answer, every probe with its run" "$PY" - "$s" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
assert s["kind"] == "sweep" and s["answer_accelerators"] >= 1, s
rows = s["probes"]
assert len(rows) >= 5 and sum(r["full"] for r in rows) >= 1, rows
for r in rows:
    assert os.path.exists(os.path.join(r["results"], "summary.json")), r
    assert abs(r["demand_MB_per_second"] - r["accelerators"] * 2.0) < 1e-6, r
# Above the answer the storage, not the demand, is the limit: what it delivered stays
# near the proxy's 24 MB/s while the demand grows.
over = [r for r in rows if r["accelerators"] > s["answer_accelerators"] + 2]
assert over and all(r["MB_per_second"] <= 24 * 1.05 for r in over), over
PY
check "probes.csv has a row per probe" \
  test "$(($(wc -l <"$folder/probes.csv") - 1))" = "$(json "$s" 'len(d["probes"])')"
done_ok
