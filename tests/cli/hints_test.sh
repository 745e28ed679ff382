#!/usr/bin/env bash
# Messages that name what the command takes and what to do (issue 46.22 and 46.24): each
# refused with exit 2 and words of trainbench's own, where they were CLI11's or yaml-cpp's or
# named the wrong thing; a key with no value is said, not silently the default; a YAML that
# `trainbench config` wrote runs without warning about its own keys.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# --io-engine on a folder names every engine that works there (uring too), before any work.
make_tiny_dataset
expect_exit 2 engine.out "$TB" run resnet50_h100 "${TINY[@]}" --io-engine s3 --no-progress
contains engine.out "--io-engine s3: not available for $WORK/data (use pread, uring or null)"
if grep -q "results in" engine.out; then cat engine.out; fail "the run began before the refusal"; fi
[ ! -e "$WORK/out" ] || fail "a refused run left $(find "$WORK/out")"

# A number option given a word: the option, the word, what it takes (CLI11: "Could not convert").
expect_exit 2 confirm.out "$TB" sweep resnet50_h100 --find-max-accelerators --confirm abc
contains confirm.out "--confirm 'abc': expected a number"
if grep -q "Could not convert" confirm.out; then fail "CLI11's words: $(cat confirm.out)"; fi

# A command that does not exist, and none at all (CLI11: "A subcommand is required").
expect_exit 2 bogus.out "$TB" bogus
contains bogus.out "unknown command 'bogus'; the commands: datagen, workloads, config"
expect_exit 2 swep.out "$TB" swep
contains swep.out "unknown command 'swep' (did you mean 'sweep'?)"
expect_exit 2 none.out "$TB"
contains none.out "give a command: datagen, workloads"
if grep -q "A subcommand is required" bogus.out none.out; then fail "CLI11's words remain"; fi

# A tab in a workload's indentation: said (yaml-cpp: "illegal map value").
printf 'dataset:\n\tnum_files_train: 4\n' >tab.yaml
expect_exit 2 tab.out "$TB" config tab.yaml
contains tab.out "tab.yaml:2: invalid YAML"
contains tab.out "(line 2 has a tab: YAML indents with spaces, never tabs)"

# A count beyond 64 bits: too large, not "expected an integer" (which it is); not echoed whole.
expect_exit 2 big.out "$TB" config resnet50_h100 dataset.num_files_train=99999999999999999999999
contains big.out "dataset.num_files_train: expected an integer >= 0; got '999999...', too large: at most 2^63 - 1"

# A key with no value keeps its default, and says so.
printf 'dataset:\n  num_files_train:\n  num_samples_per_file: 3\n' >null.yaml
expect_exit 0 null.out "$TB" config null.yaml
contains null.out "null.yaml: no value for dataset.num_files_train (line 2): the default is used"

# A YAML that `trainbench config` wrote: its DLIO keys are trainbench's own, no warning; a
# value changed from the built-in's still warns.
"$TB" config resnet50_h100 >r50.yaml
expect_exit 0 own.out "$TB" config r50.yaml
if grep -q "does not act on" own.out; then cat own.out; fail "warned about config's own keys"; fi
sed 's/data_loader: tensorflow/data_loader: pytorch/' r50.yaml >changed.yaml
expect_exit 0 changed.out "$TB" config changed.yaml
contains changed.out "accepts but does not act on: reader.data_loader (line"

# --train-results of a training that did not end (killed: its first summary only).
expect_exit 0 oprun.out "$TB" run resnet50_h100 "${TINY[@]}" train.epochs=1 train.computation_time=0 \
  --no-progress --op-log "$WORK/ops.tsv"
mkdir -p killed
cat >killed/summary.json <<'EOF'
{"kind": "train", "complete": false, "stop_reason": "the job did not end (killed, or still running): this is what it measured until then",
 "radix_metrics": {"batch_size": 4, "epochs": 1, "steps_per_epoch": 100}, "trainbench": {"model": "resnet18"}}
EOF
expect_exit 2 tr.out "$TB" replay "$WORK/ops.tsv" --train-results "$WORK/killed" --no-progress
contains tr.out "--train-results $WORK/killed/summary.json: that training did not end (the job did not end"
if grep -q "not the results of" tr.out; then fail "called a killed training not a training: $(cat tr.out)"; fi
# The commands that take S3 settings as --s3-option name that flag, not a workload's key; run
# names the key it takes (issue 46.22).
expect_exit 2 s3opt.out "$TB" stage s3://bucket/x "$WORK/st" --s3-option s3_max_attempts=abc
contains s3opt.out "error: --s3-option s3_max_attempts: 'abc' is not a whole number >= 1"
: >s3train.out
if train_has_libtorch; then
  expect_exit 2 s3train.out env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_PROFILE HOME="$WORK" \
    "$TB" train --allow-cpu --data s3://bucket/x --s3-option endpoint_url=http://127.0.0.1:9
  contains s3train.out "or --s3-option access_key_id and secret_access_key"
fi
if grep -q "storage.storage_options" s3opt.out s3train.out; then fail "a workload key named: $(cat s3opt.out s3train.out)"; fi
expect_exit 2 s3run.out "$TB" run resnet50_h100 dataset.data_folder=s3://b/x storage.storage_options.s3_max_attempts=abc
contains s3run.out "error: storage.storage_options.s3_max_attempts: 'abc' is not a whole number >= 1"
echo "PASS: hints ($checks checks)"
