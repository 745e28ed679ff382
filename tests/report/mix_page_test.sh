#!/usr/bin/env bash
# `trainbench report` draws a mix's result (`trainbench mix`: two trainings and a
# checkpointing job against one storage, each alone first with --baseline), checked in
# headless Chromium against its summary.json (check_job_dom.py): the jobs' table (each figure,
# the baseline's AU and cost among them), each training's AU over time with the checkpoint
# bursts as bands, the storage's MB/s and each job's share of it over time, and the AU inside
# and outside the bursts. Two mixes compare on one page, one section each (the second without
# --baseline: no alone columns); the second's op-logs, replayed together, draw a table of each
# job's operations against its own original; --png and --check-replication refuse a mix (exit 2).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
res=$WORK/res

# page_ok KIND FOLDER...: report them, render the page, check its DOM against the folders.
page_ok() {
  local kind=$1 out=$WORK/page-$checks.html
  shift
  "$TB" report "$@" -o "$out" >"$WORK/report.out" 2>&1 || { cat "$WORK/report.out"; fail "report $*"; }
  chromium_dump_dom "$out" "$out.dom"
  check "the $kind page of $*" $PY "$SRC/tests/report/check_job_dom.py" "$out.dom" "$kind" "$@"
}

dataset=(dataset.data_folder="$WORK/r50" dataset.num_files_train=64 dataset.num_samples_per_file=8
  dataset.record_length_bytes=100000 dataset.record_length_bytes_stdev=0)
expect_exit 0 datagen.out "$TB" datagen resnet50_h100 "${dataset[@]}" --no-progress --output "$res"
# Every job gets the file's `set:` first; a checkpointing workload ignores the dataset's keys.
set_line="set: [output.folder=$res, dataset.data_folder=$WORK/r50, dataset.num_files_train=64, \
dataset.num_samples_per_file=8, dataset.record_length_bytes=100000, \
dataset.record_length_bytes_stdev=0, train.computation_time=0.02, reader.batch_size=4]"
ck="{name: ck, workload: llama3_8b, accelerators: 1, every_s: 0.5, set: [model.num_layers=2, \
model.transformer.hidden_size=256, model.transformer.ffn_hidden_size=1024, \
model.transformer.vocab_size=2000, model.transformer.num_attention_heads=8, \
checkpoint.checkpoint_folder=$WORK/ck]}"
cat >mix.yaml <<EOF
$set_line
jobs:
  - {name: a, workload: resnet50_h100, accelerators: 2, set: [train.epochs=2]}
  - {name: b, workload: resnet50_h100, accelerators: 1, set: [train.epochs=1]}
  - $ck
EOF
expect_exit 0 mix.out "$TB" mix mix.yaml --interval 0.2 --baseline --no-progress
mix=$(json_last_line mix.out 'd["trainbench"]["results"]')
check "the mix's kind" test "$(json "$mix/summary.json" 'd["kind"]')" = mix
# What the page is checked against is there: bursts to draw, two trainings, each with an AU
# series (null where an interval held no step: a gap) and its AU alone.
check "the mix wrote checkpoint bursts and each training's AU series" $PY - "$mix/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["mix"]["baseline"] is True and s["bursts"], s["mix"]
trainings = [j for j in s["jobs"] if j["kind"] == "run"]
assert [j["name"] for j in trainings] == ["a", "b"], trainings
assert all(len(j["series"]["t_s"]) > 1 and j["alone"]["au_percentage"] is not None
           for j in trainings), trainings
PY
page_ok mix "$mix"

# A second mix, without --baseline: no alone columns; both on one page, a section each.
cat >mix2.yaml <<EOF
$set_line
jobs:
  - {name: b, workload: resnet50_h100, accelerators: 1, set: [train.epochs=1]}
  - $ck
EOF
expect_exit 0 mix2.out "$TB" mix mix2.yaml --interval 0.2 --no-progress --op-log "$WORK/ops.tsv"
mix2=$(json_last_line mix2.out 'd["trainbench"]["results"]')
page_ok mix "$mix" "$mix2"

# The second mix's op-logs replayed together: the replay's page has a row per job and
# operation, each against its own original.
expect_exit 0 replay.out "$TB" replay "$WORK/ops.b.tsv" "$WORK/ops.ck.tsv" --job-target "ck=$WORK/ckcopy" \
  --output "$res" --interval 0.2 --no-progress
page_ok replay "$(json_last_line replay.out 'd["trainbench"]["results"]')"

# What only a run's results have.
expect_exit 2 png.out "$TB" report "$mix" --png "$WORK/png"
contains png.out "--png draws \`trainbench run\` results; a mix is drawn on its HTML page"
[ ! -e "$WORK/png" ] || [ -z "$(ls -A "$WORK/png")" ] || fail "--png drew a mix"
expect_exit 2 repl.out "$TB" report --check-replication "$mix" "$mix2"
contains repl.out "--check-replication judges \`trainbench run\` results; these are mix results"
done_ok
