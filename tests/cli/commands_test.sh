#!/usr/bin/env bash
# Every command has --help; --version works; usage and config errors exit 2 with
# "trainbench: error: ..."; `workloads`, `config` and `datasize` print what they should.
source "$(dirname "$0")/../lib/common.sh"

expect_exit 0 "$WORK/out" "$TRAINBENCH" --version
contains "$WORK/out" "trainbench 0."
expect_exit 0 "$WORK/out" "$TRAINBENCH" --help
# Every command has --help: exit 0, a usage line, and a pointer to the longer docs.
for cmd in datagen workloads config datasize run train clean report stage sweep replay oplog; do
  contains "$WORK/out" "$cmd"
  expect_exit 0 "$WORK/help_$cmd" "$TRAINBENCH" "$cmd" --help
  contains "$WORK/help_$cmd" "Usage"
done
for cmd in datagen run train stage sweep replay; do
  contains "$WORK/help_$cmd" "docs/"
done
contains "$WORK/help_stage" "--mirror"
contains "$WORK/help_train" "--warmup-steps"
contains "$WORK/help_run" "--accelerators"
contains "$WORK/help_sweep" "--accelerators"
contains "$WORK/help_datagen" "--verify"
contains "$WORK/help_datasize" "--host-memory-gib"
# datagen --help ends with the formats, from the registry.
contains "$WORK/help_datagen" "mmap_indexed_binary"
contains "$WORK/help_datagen" ".hdf5 .h5"

# Usage errors: exit 2 and a message that says what to do.
expect_exit 2 "$WORK/out" "$TRAINBENCH"
contains "$WORK/out" "trainbench: error:"
expect_exit 2 "$WORK/out" "$TRAINBENCH" nosuchcommand
contains "$WORK/out" "trainbench: error:"
expect_exit 2 "$WORK/out" "$TRAINBENCH" datagen resnet50_h10
contains "$WORK/out" "did you mean 'resnet50_h100'"
expect_exit 2 "$WORK/out" "$TRAINBENCH" config resnet50_h100 dataset.num_file_train=3
contains "$WORK/out" "did you mean 'dataset.num_files_train'"
expect_exit 2 "$WORK/out" "$TRAINBENCH" config resnet50_h100 reader.batch_size=-4
contains "$WORK/out" "reader.batch_size: expected an integer >= 1"
# An unknown format is refused by every command that loads the workload, with the list;
# names match in any case, as DLIO's do.
for cmd in config datagen run "datasize --accelerators 8 --hosts 1 --host-memory-gib 64"; do
  # shellcheck disable=SC2086 # the command's words
  expect_exit 2 "$WORK/out" "$TRAINBENCH" $cmd resnet50_h100 dataset.format=tfrecords
  contains "$WORK/out" "dataset.format 'tfrecords' is not a known format; known: tfrecord, npz"
done
expect_exit 0 "$WORK/out" "$TRAINBENCH" config resnet50_h100 dataset.format=NPZ
contains "$WORK/out" "format: npz"
# A check the format makes: hdf5 chunks need a size.
expect_exit 2 "$WORK/out" "$TRAINBENCH" config resnet50_h100 dataset.format=hdf5 \
  dataset.enable_chunking=true
contains "$WORK/out" "dataset.chunk_size"

cat >"$WORK/bad.yaml" <<'YAML'
dataset:
  format: tfrecord
  num_files_train: lots
YAML
expect_exit 2 "$WORK/out" "$TRAINBENCH" config "$WORK/bad.yaml"
contains "$WORK/out" "bad.yaml:3: dataset.num_files_train: expected an integer >= 0"

# workloads lists every built-in with MLPerf figures.
expect_exit 0 "$WORK/out" "$TRAINBENCH" workloads
for w in resnet50_h100 resnet50_a100 resnet50_v100 unet3d_h100 unet3d_a100 cosmoflow_h100 cosmoflow_a100; do
  contains "$WORK/out" "$w"
done
contains "$WORK/out" "indexed_binary       .indexed_binary .bin"

# config prints the resolved YAML, overrides in both forms applied.
expect_exit 0 "$WORK/out" "$TRAINBENCH" config resnet50_h100 dataset.num_files_train=16 ++workload.reader.batch_size=32
contains "$WORK/out" "num_files_train: 16"
contains "$WORK/out" "batch_size: 32"
contains "$WORK/out" "computation_time: 0.224"
# The printed YAML is itself a valid workload that resolves to the same config.
"$TRAINBENCH" config resnet50_h100 dataset.num_files_train=16 2>/dev/null >"$WORK/resolved.yaml"
"$TRAINBENCH" config "$WORK/resolved.yaml" 2>/dev/null >"$WORK/again.yaml"
check "resolved config round-trips" diff <(sed -n '2,$p' "$WORK/resolved.yaml") <(sed -n '2,$p' "$WORK/again.yaml")

# DLIO keys trainbench accepts but does not act on are warnings, not errors.
expect_exit 0 "$WORK/out" "$TRAINBENCH" config "$SRC/tests/data/dlio-workloads/llama_7b_zero3.yaml"
contains "$WORK/out" "llama_7b_zero3.yaml: DLIO keys trainbench accepts but does not act on:"
contains "$WORK/out" "checkpoint.time_between_checkpoints (line 27)"
! grep -q "model.parallelism" "$WORK/out" || fail "model.parallelism is acted on (checkpoint sizes), not ignored"
expect_exit 0 "$WORK/out" "$TRAINBENCH" config --keys
contains "$WORK/out" "reader.transfer_size"

# datasize applies MLPerf Storage's rule.
expect_exit 0 "$WORK/out" "$TRAINBENCH" datasize resnet50_h100 --accelerators 8 --hosts 1 --host-memory-gib 64
want=$($PY -c "import math; s=max(500*400*8, math.ceil(5*1*64*2**30/114660.07)); print(s, math.ceil(s/1251))")
contains "$WORK/out" "samples          ${want% *}"
contains "$WORK/out" "files            ${want#* }"
contains "$WORK/out" "dataset.num_files_train=${want#* }"
# -a as run and sweep take it.
expect_exit 0 "$WORK/out" "$TRAINBENCH" datasize resnet50_h100 -a 8 --hosts 1 --host-memory-gib 64
contains "$WORK/out" "dataset.num_files_train=${want#* }"
# Without --host-memory-gib, this host's memory (/proc/meminfo's MemTotal).
expect_exit 0 "$WORK/out" "$TRAINBENCH" datasize resnet50_h100 --accelerators 8
gib=$(awk '/^MemTotal:/ {printf "%.2f", $2 * 1024 / 2^30}' /proc/meminfo)
contains "$WORK/out" "5 x 1 x $gib GiB"
# A checkpointing workload has no dataset to size: datasize says so and sizes its checkpoint.
expect_exit 0 "$WORK/out" "$TRAINBENCH" datasize llama3_8b
contains "$WORK/out" "llama3_8b is a checkpointing workload (workflow.train false): it reads no dataset"
contains "$WORK/out" "checkpoint       104.70 GiB"
if grep -q "datagen" "$WORK/out"; then cat "$WORK/out"; fail "datasize suggests a datagen for a checkpointing workload"; fi
done_ok
