#!/usr/bin/env bash
# `trainbench mix` on the suite's S3 gateway: two trainings reading one prefix and a
# checkpointing workload writing another every second, each first alone (--baseline), in one
# process and over 2 ranks; each training's figures in the mix equal its figures alone (AU
# within 5 points, samples/s within 10%: the gateway is far from its limit), and the
# checkpoints were PUT while the trainings ran.
# Then the capacity answer for a mix on a gateway capped at L = 24 MB/s (fault_proxy.py
# --rate-mb): `sweep --mix --vary main` searches the main training's count while a second
# training of 4 accelerators (D = 2 MB/s each: 8 MB/s) runs beside every probe; the answer is
# floor((L - 8) / (0.9 x D)) = 8, within one accelerator.
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/../lib/mix.sh"
s3_use_gateway
cd "$WORK"
s3_new_bucket mix
at_exit "s3_remove_bucket $bucket"

data=(dataset.num_files_train=64 dataset.num_samples_per_file=4 dataset.record_length_bytes=100000
  dataset.record_length_bytes_stdev=0 "dataset.data_folder=s3://$bucket/r50"
  storage.storage_options.endpoint_url="$S3_TEST_ENDPOINT")
expect_exit 0 dg.out "$TB" datagen resnet50_h100 "${data[@]}" --no-progress
# A 7.7 MB checkpoint every second beside 8 and 10 MB/s of reads: far below what the gateway
# serves on this host, so sharing it must cost the trainings nothing measurable.
small=(model.num_layers=1 model.transformer.hidden_size=128 model.transformer.ffn_hidden_size=512
  model.transformer.vocab_size=1000 model.transformer.num_attention_heads=4)
jobs=(--job "name=big workload=resnet50_h100 accelerators=2 train.computation_time=0.05 train.epochs=2"
  --job "name=small workload=resnet50_h100 accelerators=2 train.computation_time=0.04 train.epochs=2"
  --job "name=ck workload=llama3_8b accelerators=2 every_s=1 $(echo "${small[@]}") checkpoint.checkpoint_folder=s3://$bucket/ck")

# mix_ok OUT: the mix's summary: each job's own results over the ranks, the checkpoints PUT.
mix_ok() {
  check "$1: each job's own results, the checkpoints PUT while the trainings ran" "$PY" - \
    "$(json_last_line "$1" 'd["trainbench"]["results"]')" "$2" <<'PY'
import json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
ranks = int(sys.argv[2])
assert s["kind"] == "mix" and s["complete"], s["stop_reason"]
jobs = {j["name"]: j for j in s["jobs"]}
for name in ("big", "small"):
    j = jobs[name]
    own = json.load(open(os.path.join(j["results"], "summary.json")))
    assert own["num_ranks"] == ranks and own["complete"], (own["num_ranks"], own["stop_reason"])
    assert own["storage_latency_ms"]["GET"]["count"] > 0, own["storage_latency_ms"]
ck = jobs["ck"]
assert ck["exit_code"] == 0 and ck["checkpoints_written"] >= 2, ck
own = json.load(open(os.path.join(ck["results"], "summary.json")))
assert own["storage_latency_ms"]["checkpoint_PUT"]["count"] > 0, own["storage_latency_ms"]
assert all(b["end_s"] <= s["mix"]["wall_s"] for b in s["bursts"]) and s["bursts"], s["bursts"]
assert s["storage"]["checkpoint_MB_per_second"] > 0 and s["storage"]["read_MB_per_second"] > 0
PY
}
# mix_on_s3 RANKS OUT: the mix in one process or over 2 ranks, its stdout in OUT.
mix_on_s3() {
  local launch=("$TB")
  [ "$1" = 2 ] && launch=(mpi_launch 240 -np 2 "$TB")
  "${launch[@]}" mix --baseline --interval 0.2 "${jobs[@]}" "${data[@]}" reader.batch_size=2 \
    "output.folder=$WORK/res$1" >"$2" 2>"$2.err" || { cat "$2" "$2.err"; fail "the mix on S3 over $1 rank(s)"; }
}
mix_on_s3 1 one.out
mix_ok one.out 1
check_sharing_cost "each training in the mix as alone, one process" one.out mix_on_s3 1
mix_on_s3 2 two.out
mix_ok two.out 2
check_sharing_cost "each training in the mix as alone, 2 ranks" two.out mix_on_s3 2

# The capped gateway. D = 1 x 200,000 B / 0.1 s = 2 MB/s per accelerator (as sweep_limit_test.sh).
base=(dataset.data_folder="s3://$bucket/cap" dataset.num_files_train=800 dataset.num_samples_per_file=1
  dataset.record_length_bytes=200000 dataset.record_length_bytes_stdev=0 reader.batch_size=1
  train.computation_time=0.1 train.epochs=1)
expect_exit 0 dgcap.out "$TB" datagen resnet50_h100 "${base[@]}" \
  storage.storage_options.endpoint_url="$S3_TEST_ENDPOINT" --no-progress
limit=24
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy.json" --rate-mb "$limit"
cat >cap.yaml <<YAML
set: [$(printf '%s, ' "${base[@]}") storage.storage_options.endpoint_url=$FAULT_PROXY_ENDPOINT, output.folder=$WORK/res3]
jobs:
  - {name: main, workload: resnet50_h100, accelerators: 1}
  - {name: beside, workload: resnet50_h100, accelerators: 4}
YAML
expect_exit 0 sweep.out "$TB" sweep --mix cap.yaml --vary main --find-max-accelerators --max 32 --confirm 1 \
  --no-progress
fault_proxy_stop
cat sweep.out
answer=$(json_last_line sweep.out 'd["trainbench_sweep"]["answer_accelerators"]')
want=$("$PY" -c "import math; print(math.floor(($limit - 4 * 2.0) / (0.9 * 2.0)))")
check "capped at $limit MB/s with 8 MB/s beside it: the answer $answer is within 1 of $want" \
  "$PY" -c "assert abs($answer - $want) <= 1, ($answer, $want)"
contains sweep.out "while the mix's other jobs ran beside it: beside (resnet50_h100, 4 accelerator(s))"
folder=$(json_last_line sweep.out 'd["trainbench"]["results"]')
check "the sweep's folder and summary name the mix; each probe is the varied job's run in a mix" \
  "$PY" - "$folder" <<'PY'
import json, os, sys
folder = sys.argv[1]
assert os.path.basename(folder).startswith("sweep-mix-main-max-"), folder
s = json.load(open(os.path.join(folder, "summary.json")))
assert s["mix"]["vary"] == "main" and [b["name"] for b in s["mix"]["beside"]] == ["beside"], s["mix"]
for p in s["probes"]:
    run = json.load(open(os.path.join(p["results"], "summary.json")))
    assert os.path.basename(p["results"]) == "main" and run["kind"] == "run", p["results"]
    beside = json.load(open(os.path.join(os.path.dirname(p["results"]), "beside", "summary.json")))
    assert beside["num_accelerators"] == 4 and beside["metric"]["train_au_mean_percentage"] is not None
PY
done_ok
