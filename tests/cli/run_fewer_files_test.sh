#!/usr/bin/env bash
# A run that asks for fewer files than its dataset holds (DLIO takes the first ones) reads
# those: the manifest's other files are dropped from the run's file table, the eval files
# that follow the unread train files are still found, and only the chosen files are read.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
shape=(dataset.record_length_bytes=4096 dataset.record_length_bytes_stdev=0
  "dataset.data_folder=$WORK/d")
"$TB" datagen unet3d_h100 dataset.num_files_train=8 dataset.num_files_eval=2 "${shape[@]}" \
  --no-progress >/dev/null 2>&1 || fail "datagen"
"$TB" run unet3d_h100 dataset.num_files_train=4 dataset.num_files_eval=2 "${shape[@]}" \
  workflow.evaluation=true evaluation.epochs_between_evals=1 train.epochs=2 \
  train.computation_time=0 reader.batch_size=1 reader.batch_size_eval=1 \
  "output.folder=$WORK/out" --no-progress >out.txt 2>err.txt || { cat err.txt; fail "run"; }
contains err.txt "has 8 train files; using the first 4 (dataset.num_files_train)"
s=$(ls -d "$WORK"/out/*/)summary.json
check "4 train files" test "$(json "$s" 'd["train_files"]')" = 4
check "train and eval phases of 4 and 2 samples" \
  test "$(json "$s" '[(p["kind"], p["samples"]) for p in d["phases"]]')" = \
  "[('train', 4), ('train', 4), ('eval', 2), ('eval', 2)]"
check "6 files read, each in both epochs" \
  test "$(json "$s" '(d["io_characterization"]["files_read"], d["io_characterization"]["POSIX_READS"])')" = "(6, 12)"
# Which files: the manifest's first 4 train files and its 2 eval files, by the op-log.
"$TB" run unet3d_h100 dataset.num_files_train=4 dataset.num_files_eval=2 "${shape[@]}" \
  workflow.evaluation=true evaluation.epochs_between_evals=1 train.epochs=1 \
  train.computation_time=0 reader.batch_size=1 reader.batch_size_eval=1 --op-log ops.tsv \
  "output.folder=$WORK/out2" --no-progress --no-warnings >/dev/null 2>&1 || fail "run --op-log"
/usr/bin/python3 - "$WORK/d/trainbench_manifest.json" ops.tsv <<'PY' || fail "the files read"
import csv, json, sys
files = [f["path"] for f in json.load(open(sys.argv[1]))["files"]]
want = {p for p in files if p.startswith("valid/")}
want |= set([p for p in files if p.startswith("train/")][:4])
read = {r["file"].split("/d/", 1)[1] for r in csv.DictReader(open(sys.argv[2]), delimiter="\t")
        if r["op"] == "GET"}
assert read == want, (sorted(read), sorted(want))
print("read:", sorted(read))
PY
done_ok
