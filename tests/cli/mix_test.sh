#!/usr/bin/env bash
# `trainbench mix` on a folder: two trainings (2 and 1 accelerators) and a checkpointing
# workload writing every 0.5 s run together, each first alone (--baseline). Each job's figures
# in the mix equal its own results' (its folder's summary.json), and, on this uncontended
# storage, its figures alone (AU within 5 points, samples/s within 10%); the checkpoint job
# ran as long as the trainings and no longer, its bursts are on the mix's time axis and each
# training's AU is measured inside and outside them. Mixes out of range are refused (exit 2)
# before any work, naming the file's line or the flag, and so is a job whose dataset is missing
# or too small (every job's is found before any starts); a job that fails as it runs stops the
# others and the mix says which. `--op-log` keeps each job's operations in a file of its own, each line
# naming its job, and a job's file replays, keeping the job; the files of a whole mix replay
# together, each compared with its own original.
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/../lib/mix.sh"
cd "$WORK"

data=(dataset.num_files_train=64 dataset.num_samples_per_file=8 dataset.record_length_bytes=100000
  dataset.record_length_bytes_stdev=0 "dataset.data_folder=$WORK/r50")
expect_exit 0 dg.out "$TB" datagen resnet50_h100 "${data[@]}" --no-progress
cat >mix.yaml <<YAML
set: [output.folder=$WORK/res, $(printf '%s, ' "${data[@]}") reader.batch_size=4]
jobs:
  - name: big
    workload: resnet50_h100
    accelerators: 2
    set: {train.computation_time: 0.02, train.epochs: 2}
  - name: small
    workload: resnet50_h100
    accelerators: 1
    set: [train.computation_time=0.01, train.epochs=1]
  - name: ck
    workload: llama3_8b
    accelerators: 1
    every_s: 0.5
    set: [model.num_layers=2, model.transformer.hidden_size=256, model.transformer.ffn_hidden_size=1024,
          model.transformer.vocab_size=2000, model.transformer.num_attention_heads=8,
          checkpoint.checkpoint_folder=$WORK/ck]
YAML
expect_exit 0 mix.out "$TB" mix mix.yaml --baseline --interval 0.2
folder=$(json_last_line mix.out 'd["trainbench"]["results"]')
contains mix.out "storage: "
contains mix.out '"trainbench_mix"'
check "the mix's summary: each job as its own results say, alone and together" "$PY" - "$folder" <<'PY'
import json, os, sys
folder = sys.argv[1]
s = json.load(open(os.path.join(folder, "summary.json")))
assert s["kind"] == "mix" and s["complete"], (s["kind"], s["stop_reason"])
jobs = {j["name"]: j for j in s["jobs"]}
assert list(jobs) == ["big", "small", "ck"], list(jobs)
for name in ("big", "small"):
    j = jobs[name]
    own = json.load(open(os.path.join(j["results"], "summary.json")))
    assert j["results"] == os.path.join(folder, name), j["results"]
    assert own["kind"] == "run" and own["complete"], own["stop_reason"]
    assert abs(j["au_percentage"] - own["metric"]["train_au_mean_percentage"]) < 1e-9, (j, own["metric"])
    # Samples over the epochs' time (the run's final line), beside the mean of its epochs'.
    mean = own["metric"]["train_throughput_mean_samples_per_second"]
    assert abs(j["samples_per_second"] - mean) <= 0.02 * mean, (j["samples_per_second"], mean)
    alone = j["alone"]
    assert alone["results"] == os.path.join(folder, "alone", name), alone
    series = j["series"]
    assert len(series["t_s"]) == len(series["au_percentage"]) >= 3, series
    assert j["au_outside_bursts_percentage"] is not None
    assert j["intervals_in_bursts"] >= 1 and j["au_in_bursts_percentage"] is not None, j
ck = jobs["ck"]
assert ck["role"] == "background" and ck["kind"] == "checkpoint" and ck["every_s"] == 0.5, ck
assert ck["exit_code"] == 0 and not ck["complete"], ck
assert ck["stop_reason"] == "ended with the mix: its foreground jobs ended", ck["stop_reason"]
# Every 0.5 s while the longer training ran (2 epochs of 64 steps at 0.02 s: about 2.6 s).
assert ck["checkpoints_written"] >= 3, ck
bursts = s["bursts"]
assert len(bursts) == ck["checkpoints_written"] and all(b["job"] == "ck" for b in bursts), bursts
wall = s["mix"]["wall_s"]
for a, b in zip(bursts, bursts[1:]):
    assert b["start_s"] - a["start_s"] >= 0.45, bursts  # one every 0.5 s, start to start
assert all(0 <= b["start_s"] < b["end_s"] <= wall for b in bursts), (bursts, wall)
# It stopped when the trainings ended, not later.
longest = max(jobs[n]["start_s"] + jobs[n]["run_seconds"] for n in ("big", "small"))
assert ck["start_s"] + ck["run_seconds"] <= longest + 1.0, (ck, longest)
st = s["storage"]
assert st["reads"] == sum(json.load(open(os.path.join(jobs[n]["results"], "summary.json")))["io_characterization"]["POSIX_READS"] for n in ("big", "small")) or st["reads"] > 0
assert st["checkpoint_files"] >= ck["checkpoints_written"] and st["MB_per_second"] > 0, st
assert s["client"]["cpu_seconds"] > 0 and s["client"]["samples"] > 0 and s["client"]["cpu_us_per_sample"] > 0, s["client"]
shares = st["series"]["share"]
assert set(shares) == {"big", "small", "ck"}
for i in range(len(st["series"]["t_s"])):
    total = sum(shares[n][i] for n in shares)
    assert total == 0 or abs(total - 1) < 1e-9, (i, total)
# The alone baseline of the background job ran about as long as the longest foreground one.
assert os.path.exists(os.path.join(folder, "alone", "ck", "summary.json"))
PY

# Uncontended (a local folder the page cache holds): sharing costs nothing measurable.
rerun_mix() { expect_exit 0 "$1" "$TB" mix mix.yaml --baseline --interval 0.2; }
check_sharing_cost "each training in the mix as alone" mix.out rerun_mix

# Command-line jobs and overrides: NAME:KEY=VALUE for one job, KEY=VALUE for all.
expect_exit 0 jobs.out "$TB" mix --job "name=one workload=resnet50_h100 accelerators=1" \
  --job "workload=resnet50_h100 accelerators=2" "${data[@]}" "output.folder=$WORK/res2" \
  train.computation_time=0.005 reader.batch_size=8 train.epochs=1 resnet50_h100:train.epochs=2 \
  one:accelerators=3 --op-log "$WORK/ops.tsv" $([ "$(id -u)" = 0 ] && echo --drop-caches)
[ "$(id -u)" = 0 ] && contains jobs.out "mix: --drop-caches: page caches dropped on 1 host(s)"
check "command-line jobs: named by their workload when unnamed, each its own overrides and op-log" \
  "$PY" - "$(json_last_line jobs.out 'd["trainbench"]["results"]')" "$WORK" <<'PY'
import csv, json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
jobs = {j["name"]: j for j in s["jobs"]}
assert list(jobs) == ["one", "resnet50_h100"], list(jobs)
assert jobs["one"]["accelerators"] == 3 and jobs["resnet50_h100"]["accelerators"] == 2, jobs
summaries = {n: json.load(open(os.path.join(j["results"], "summary.json"))) for n, j in jobs.items()}
epochs = {n: own["epochs_completed"] for n, own in summaries.items()}
assert epochs == {"one": 1, "resnet50_h100": 2}, epochs
# Each job's operations in its own file, each line naming the job; as many reads as it made.
for name, own in summaries.items():
    rows = list(csv.DictReader(open(os.path.join(sys.argv[2], f"ops.{name}.tsv")), delimiter="\t"))
    assert rows and all(r["client_id"].endswith("/" + name) for r in rows), (name, rows[:1])
    reads = own["io_characterization"]["POSIX_READS"]
    assert sum(r["op"] == "GET" for r in rows) == reads, (name, len(rows), reads)
PY
# A job's op-log replays as any run's: that job's reads, against the same files; the replay
# keeps the job (its summary, and its own op-log's lines).
expect_exit 0 replay.out "$TB" replay "$WORK/ops.one.tsv" --no-progress --op-log "$WORK/again.tsv" \
  --output "$WORK/replays"
contains replay.out "(job one of a mix)"
check "the replay of a mix's job keeps the job" "$PY" - "$(json_last_line replay.out 'd["trainbench"]["results"]')" \
  "$WORK/again.tsv" <<'PY'
import csv, json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
assert s["job"] == "one" and s["errors"] == 0 and s["operations"] == s["original_operations"], s
rows = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
assert rows and all(r["client_id"].endswith("/one") for r in rows), rows[:1]
PY

# A whole mix's op-logs replay together, timed: a training's reads where they were, the
# checkpointing job's PUTs to an empty folder of its own (--job-target); each job is compared
# with its own original and all of them together, and each keeps its own op-log of the replay.
ck_small=(model.num_layers=1 model.transformer.hidden_size=128 model.transformer.ffn_hidden_size=512
  model.transformer.vocab_size=1000 model.transformer.num_attention_heads=4)
expect_exit 0 logged.out "$TB" mix --job "name=tr workload=resnet50_h100 accelerators=1" \
  --job "name=ck workload=llama3_8b accelerators=1 every_s=0.3 $(echo "${ck_small[@]}") checkpoint.checkpoint_folder=$WORK/ck5" \
  "${data[@]}" train.epochs=1 train.computation_time=0.01 reader.batch_size=4 \
  "output.folder=$WORK/res5" --op-log "$WORK/mixops.tsv"
expect_exit 2 putsnowhere.out "$TB" replay "$WORK/mixops.tr.tsv" "$WORK/mixops.ck.tsv"
contains putsnowhere.out "op-log $WORK/mixops.ck.tsv has PUTs or DELETEs"
expect_exit 2 nosuchjob.out "$TB" replay "$WORK/mixops.tr.tsv" "$WORK/mixops.ck.tsv" --job-target cc=/tmp/x
contains nosuchjob.out "no op-log given is job cc's (their jobs: tr, ck"
expect_exit 0 together.out "$TB" replay "$WORK/mixops.tr.tsv" "$WORK/mixops.ck.tsv" --mode timed \
  --job-target "ck=$WORK/ckcopy" --op-log "$WORK/again5.tsv" --output "$WORK/replays" --no-progress
contains together.out "job tr ($WORK/mixops.tr.tsv"
contains together.out "all 2 op-logs together:"
check "the mix's op-logs replayed together: each job against its own original" "$PY" - \
  "$(json_last_line together.out 'd["trainbench"]["results"]')" "$WORK" <<'PY'
import csv, json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
work = sys.argv[2]
jobs = {j["job"]: j for j in s["jobs"]}
assert list(jobs) == ["tr", "ck"] and s["job"] == "", (list(jobs), s["job"])
for name, j in jobs.items():
    rows = list(csv.DictReader(open(os.path.join(work, f"mixops.{name}.tsv")), delimiter="\t"))
    assert j["op_log"] == os.path.join(work, f"mixops.{name}.tsv"), j
    assert j["errors"] == 0 and j["operations"] == j["original_operations"] == len(rows), (name, j, len(rows))
    again = list(csv.DictReader(open(os.path.join(work, f"again5.{name}.tsv")), delimiter="\t"))
    assert len(again) == len(rows) and all(r["client_id"].endswith("/" + name) for r in again), name
assert {r["op"] for r in jobs["tr"]["ops"]} == {"GET"} and {r["op"] for r in jobs["ck"]["ops"]} == {"PUT"}
assert s["operations"] == sum(j["operations"] for j in jobs.values()), s["operations"]
# Timed: each operation waited for its original time (the last GET started about as late as
# it did), and the checkpoints landed in the copy.
assert s["mode"] == "timed" and s["seconds"] >= 0.5 * s["original_seconds"], (s["seconds"], s["original_seconds"])
assert os.listdir(os.path.join(work, "ckcopy")), "no checkpoint in the copy"
PY

# Refused before any work (exit 2), each saying what to write instead; no mix folder is made.
refuse() {  # refuse NAME TEXT ARGS...: exit 2, TEXT in the message, nothing under res-bad
  local name=$1 text=$2
  shift 2
  expect_exit 2 "$name.out" "$TB" mix "$@" "output.folder=$WORK/res-bad"
  contains "$name.out" "$text"
}
printf 'jobs:\n  - workload: resnet50_h100\n    acelerators: 2\n' >typo.yaml
refuse typo "typo.yaml:3: a job has no key 'acelerators'" typo.yaml
refuse every "job x: every_s is for checkpointing workloads" --job "workload=resnet50_h100" \
  --job "name=x workload=resnet50_h100 every_s=5"
refuse twice "two jobs are named 'a'" --job "name=a workload=resnet50_h100" --job "name=a workload=unet3d_h100"
refuse nojob "the mix has no job 'nope': its jobs are a" --job "name=a workload=resnet50_h100" nope:train.epochs=2
refuse allbg "every job of the mix is background" --job "workload=resnet50_h100 background=true"
refuse zero "accelerators 0: give 1 to" --job "workload=resnet50_h100 accelerators=0"
refuse empty "a mix needs one job or more"
refuse interval "--interval" --job "workload=resnet50_h100" --interval 0
check "no results folder from a refused mix" test ! -e "$WORK/res-bad"

# A job whose dataset is missing (exit 1, as `run`) or too small for its accelerators (exit 2)
# is refused before any job starts: no mix folder, the job named.
expect_exit 1 missing.out "$TB" mix --job "name=fine workload=resnet50_h100 accelerators=1" \
  --job "name=lost workload=resnet50_h100 accelerators=1" "${data[@]:0:4}" \
  fine:dataset.data_folder="$WORK/r50" lost:dataset.data_folder="$WORK/nothing" \
  train.epochs=50 train.computation_time=0.01 "output.folder=$WORK/res3"
contains missing.out "job lost: no dataset at $WORK/nothing"
check "no mix folder for a job refused before the start" test ! -e "$WORK/res3"
expect_exit 2 fewsamples.out "$TB" mix --job "name=fine workload=resnet50_h100 accelerators=1" \
  --job "name=wide workload=resnet50_h100 accelerators=600" "${data[@]}" reader.batch_size=4 \
  "output.folder=$WORK/res3"
contains fewsamples.out "job wide: the dataset has 512 train samples, fewer than reader.batch_size (4) x accelerators (600)"
check "no mix folder for a job refused before the start" test ! -e "$WORK/res3"

# A job that fails while it runs (its dataset cut short under it: a short read, exit 1)
# stops the others; the mix names it.
cp -r "$WORK/r50" "$WORK/r50cut"
"$TB" mix --job "name=fine workload=resnet50_h100 accelerators=1" \
  --job "name=lost workload=resnet50_h100 accelerators=1" "${data[@]}" \
  fine:dataset.data_folder="$WORK/r50" lost:dataset.data_folder="$WORK/r50cut" train.epochs=50 \
  train.computation_time=0.01 reader.batch_size=4 "output.folder=$WORK/res3" >cut.out 2>cut.err &
pid=$!
wait_for_line cut.err "\[lost\] epoch 1/50" "the lost job's first epoch"
for f in "$WORK"/r50cut/train/*; do truncate -s 0 "$f"; done
code=0
wait "$pid" || code=$?
check "a job failing in the mix fails the mix (exit 1)" test "$code" = 1
contains cut.err "job lost: "
missing=$(ls -d "$WORK"/res3/mix-*)
check "the stopped mix says which job stopped it, and why the other ended" "$PY" - "$missing" <<'PY'
import json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
assert not s["complete"] and s["stop_reason"].startswith("job lost: "), s["stop_reason"]
assert "short read" in s["stop_reason"], s["stop_reason"]
fine = [j for j in s["jobs"] if j["name"] == "fine"][0]
assert fine["stop_reason"].startswith("stopped: job lost of the mix stopped"), fine
PY

# Ctrl-C stops every job; each keeps what it measured, the mix says it was interrupted (130).
"$TB" mix --job "name=long workload=resnet50_h100 accelerators=1" \
  --job "name=ck workload=llama3_8b accelerators=1 every_s=0.5 model.num_layers=1 model.transformer.hidden_size=128 model.transformer.ffn_hidden_size=512 model.transformer.vocab_size=1000 model.transformer.num_attention_heads=4 checkpoint.checkpoint_folder=$WORK/ck2" \
  "${data[@]}" train.epochs=500 train.computation_time=0.01 reader.batch_size=4 \
  "output.folder=$WORK/res4" >int.out 2>int.err &
pid=$!
wait_for_line int.err "\[long\] epoch 1/500" "the long job's first epoch"
kill -INT "$pid"
code=0
wait "$pid" || code=$?
check "an interrupted mix exits 130" test "$code" = 130
check "the interrupted mix keeps every job's figures, marked interrupted" "$PY" - \
  "$(ls -d "$WORK"/res4/mix-*)" <<'PY'
import json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
assert not s["complete"] and "interrupted" in s["stop_reason"], s["stop_reason"]
for j in s["jobs"]:
    own = json.load(open(os.path.join(j["results"], "summary.json")))
    assert j["exit_code"] == 130 and not own["complete"], (j["name"], j["exit_code"])
long = [j for j in s["jobs"] if j["name"] == "long"][0]
assert long["samples_per_second"] > 0, long
PY
done_ok
