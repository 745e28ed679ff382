#!/usr/bin/env bash
# `trainbench mix` over 2 ranks: two trainings and a checkpointing workload every 0.5 s, each
# job's accelerators split over both ranks (each job on its own communicator, on its own
# thread in every rank), each first alone (--baseline). Each job's results say 2 ranks; each
# training's figures in the mix equal its figures alone (AU within 5 points, samples/s within
# 10%: a local folder, uncontended); the checkpoints were written by both ranks, one every
# 0.5 s, until the trainings ended. Then sweep --mix over the 2 ranks.
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/../lib/mix.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"

data=(dataset.num_files_train=64 dataset.num_samples_per_file=8 dataset.record_length_bytes=100000
  dataset.record_length_bytes_stdev=0 "dataset.data_folder=$WORK/r50")
expect_exit 0 dg.out "$TB" datagen resnet50_h100 "${data[@]}" --no-progress
small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8)
# mix_over_2 OUT: the mix over 2 ranks, its stdout in OUT.
mix_over_2() {
  mpi_launch 240 -np 2 "$TB" mix --baseline --interval 0.2 \
    --job "name=big workload=resnet50_h100 accelerators=4 train.computation_time=0.02 train.epochs=2" \
    --job "name=small workload=resnet50_h100 accelerators=2 train.computation_time=0.01 train.epochs=1" \
    --job "name=ck workload=llama3_8b accelerators=2 every_s=0.5 $(echo "${small[@]}") checkpoint.checkpoint_folder=$WORK/ck" \
    "${data[@]}" reader.batch_size=4 "output.folder=$WORK/res" >"$1" 2>"$1.err" ||
    { cat "$1.err"; fail "the mix over 2 ranks"; }
}
mix_over_2 mix.out
folder=$(json_last_line mix.out 'd["trainbench"]["results"]')
contains mix.out.err "[big] rank 0's share: epoch 2/2"
check "each job over 2 ranks" "$PY" - "$folder" <<'PY'
import json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
assert s["kind"] == "mix" and s["complete"], s["stop_reason"]
jobs = {j["name"]: j for j in s["jobs"]}
for name in ("big", "small"):
    j = jobs[name]
    own = json.load(open(os.path.join(j["results"], "summary.json")))
    assert own["num_ranks"] == 2 and own["complete"], (own["num_ranks"], own["stop_reason"])
    assert own["num_accelerators"] == j["accelerators"], own["num_accelerators"]
ck = jobs["ck"]
assert ck["exit_code"] == 0 and ck["checkpoints_written"] >= 3, ck
own = json.load(open(os.path.join(ck["results"], "summary.json")))
assert all(c["ranks"] == 2 for c in own["checkpoints"]), own["checkpoints"]
assert len(s["bursts"]) == ck["checkpoints_written"], s["bursts"]
PY

check_sharing_cost "each training over 2 ranks in the mix as alone" mix.out mix_over_2

# sweep --mix over 2 ranks: the varied job's count split over them, the other beside each probe.
cat >mix.yaml <<YAML
set: [$(printf '%s, ' "${data[@]}") reader.batch_size=1, train.computation_time=0.02, "output.folder=$WORK/res3"]
jobs:
  - {name: main, workload: resnet50_h100, accelerators: 1}
  - {name: other, workload: resnet50_h100, accelerators: 2}
YAML
mpi_launch 240 -np 2 "$TB" sweep --mix mix.yaml --vary main --find-max-accelerators --min 2 \
  --max 4 --confirm 1 --no-progress >sweep.out 2>sweep.err || { cat sweep.err; fail "sweep --mix over 2 ranks"; }
check "sweep --mix over 2 ranks: every count up to --max passes on this uncontended folder" \
  test "$(json_last_line sweep.out 'd["trainbench_sweep"]["answer_accelerators"]')" = 4
contains sweep.out "while the mix's other jobs ran beside it: other (resnet50_h100, 2 accelerator(s))"
done_ok
