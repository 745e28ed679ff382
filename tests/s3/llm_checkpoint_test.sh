#!/usr/bin/env bash
# MLPerf Storage's LLM checkpointing on S3 (issue: "works on file systems and S3"): a
# scaled-down llama3_8b checkpoint-only run by 2 ranks writes each rank's ZeRO shard objects
# (DLIO's zero_pp_rank_D_mp_rank_M_{model,optim}_states.pt keys) under the checkpoint
# prefix, reads every one back byte for byte, and reports per checkpoint the bytes that the
# gateway's listing (curl's, not trainbench's) holds.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"

s3_new_bucket llm
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=2
  "checkpoint.checkpoint_folder=s3://$bucket/ck" storage.storage_options.s3_force_path_style=true
  --no-progress)
mpi_launch 120 -np 2 "$TB" run llama3_8b "${small[@]}" >run.out 2>run.err ||
  { cat run.err; fail "LLM checkpointing to S3 over 2 ranks"; }
s=$(ls -d "$WORK"/out/*/ | head -n 1)summary.json
[ "$(json "$s" 'd["complete"]')" = True ] || fail "run: $(json "$s" 'd["stop_reason"]')"
[ "$(json "$s" '[(c["operation"], c["ranks"]) for c in d["checkpoints"]]')" = \
  "[('write', 2), ('write', 2), ('read', 2), ('read', 2)]" ] ||
  fail "checkpoints: $(json "$s" 'd["checkpoints"]')"
# What the gateway holds: 2 ranks x (model + optimizer) shard objects per checkpoint, whose
# sizes add up to the bytes the summary reports for it.
s3_curl GET "/$bucket?list-type=2&prefix=ck%2F" >list.xml
"$PY" - list.xml "$s" <<'PY' || fail "checkpoint objects on S3"
import collections, json, re, sys
xml = open(sys.argv[1]).read()
objects = re.findall(r"<Key>([^<]*)</Key>.*?<Size>(\d+)</Size>", xml)
steps = collections.defaultdict(list)
records = collections.defaultdict(list)
for key, size in objects:
    step, name = key.split("/")[-2], key.split("/")[-1]
    assert re.fullmatch(r"global_epoch1_step[12]", step), key
    if name.startswith(".trainbench_checkpoint.rank"):  # each rank's record of its files
        records[step].append(name)
        continue
    assert re.fullmatch(r"zero_pp_rank_[01]_mp_rank_0_(model|optim)_states\.pt", name), key
    steps[step].append(int(size))
assert len(steps) == 2 and all(len(v) == 4 for v in steps.values()), dict(steps)
assert all(sorted(v) == [".trainbench_checkpoint.rank0.json", ".trainbench_checkpoint.rank1.json"]
           for v in records.values()) and len(records) == 2, dict(records)
summary = json.load(open(sys.argv[2]))
writes = [c["bytes"] for c in summary["checkpoints"] if c["operation"] == "write"]
assert sorted(sum(v) for v in steps.values()) == sorted(writes), (dict(steps), writes)
print("ok:", {k: sum(v) for k, v in steps.items()})
PY
echo OK
