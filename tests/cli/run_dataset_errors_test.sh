#!/usr/bin/env bash
# A run over a missing or mismatched dataset fails (exit 1) naming what differs, and
# names the datagen command to run; a damaged file fails mid-run naming file and offset.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
expect_error() {  # expect_error PATTERN args...: exit 1 and stderr matching PATTERN
  local pattern=$1 rc=0
  shift
  "$TB" run resnet50_h100 "${TINY[@]}" train.computation_time=0 reader.batch_size=16 "$@" \
    >out.txt 2>err.txt || rc=$?
  [ "$rc" = 1 ] || { cat err.txt; fail "exit $rc (expected 1) for: $*"; }
  grep -q -- "$pattern" err.txt || { cat err.txt; fail "stderr lacks '$pattern' for: $*"; }
}
expect_error "trainbench datagen resnet50_h100 dataset.num_files_train=4"
make_tiny_dataset dataset.num_files_train=2
expect_error "has 2 train files but the config asks for 4"
expect_error "dataset.num_files_train=4"
expect_error "format: dataset \"tfrecord\", config \"hdf5\"" dataset.num_files_train=2 dataset.format=hdf5
expect_error "num_samples_per_file: dataset 100, config 50" dataset.num_files_train=2 \
  dataset.num_samples_per_file=50
# Without a manifest (as DLIO writes), the files are listed and scanned.
rm "$WORK/data/trainbench_manifest.json"
expect_error "found 2 .tfrecord files" dataset.num_files_train=2 dataset.format=hdf5
"$TB" run resnet50_h100 "${TINY[@]}" dataset.num_files_train=2 train.computation_time=0 \
  reader.batch_size=20 train.epochs=1 >out.txt 2>err.txt || { cat err.txt; fail "scan run failed"; }
last_line_json out.txt line.json
[ "$(json line.json 'd["trainbench_metrics"]["bytes_read"]')" = $((2 * $(stat -c %s "$WORK"/data/train/img_0_of_2.tfrecord))) ] ||
  fail "scanned run read the wrong bytes"
# More accelerators x batch than samples: a usage error (exit 2) and no results folder.
rc=0
before=$(ls "$WORK/out" 2>/dev/null | wc -l)
"$TB" run resnet50_h100 "${TINY[@]}" dataset.num_files_train=2 reader.batch_size=300 \
  >out.txt 2>err.txt || rc=$?
[ "$rc" = 2 ] && grep -q "fewer than reader.batch_size (300)" err.txt || { cat err.txt; fail "batch too large"; }
[ "$(ls "$WORK/out" 2>/dev/null | wc -l)" = "$before" ] || fail "a refused run left a results folder"
# A web server's URL as the data folder (no listing, no lock): refused before any request,
# its password never shown.
expect_exit 2 http.txt "$TB" run resnet50_h100 "${TINY[@]}" \
  "dataset.data_folder=http://user:hunter2@127.0.0.1:9/data"
contains http.txt "a web server has no listing"
check "the URL's password is not shown" bash -c "! grep -q hunter2 http.txt"
# A file that shrinks after datagen fails, naming it.
make_tiny_dataset dataset.num_files_train=2
truncate -s 1000000 "$WORK/data/train/img_1_of_2.tfrecord"
expect_error "img_1_of_2.tfrecord is 1000000 bytes" dataset.num_files_train=2

# A file that breaks mid-run: the run stops, names the file and offset, keeps the
# epochs it measured (marked incomplete) and exits 1 (both read engines).
for engine in pread uring; do
  make_tiny_dataset dataset.num_files_train=2
  rc=0
  "$TB" run resnet50_h100 "${TINY[@]}" dataset.num_files_train=2 train.computation_time=0.02 \
    reader.batch_size=10 train.epochs=20 --io-engine "$engine" >out.txt 2>err.txt &
  pid=$!
  wait_for_start err.txt
  sleep 0.5
  truncate -s 100000 "$WORK/data/train/img_1_of_2.tfrecord"
  wait "$pid" || rc=$?
  [ "$rc" = 1 ] || { cat err.txt; fail "$engine: mid-run failure: exit $rc, expected 1"; }
  grep -q "short read at offset [0-9]* of '.*img_1_of_2.tfrecord'" err.txt ||
    { cat err.txt; fail "$engine: file and offset not named"; }
  grep -q "partial results" err.txt || fail "$engine: partial results not mentioned"
  dir=$(results_dir)
  [ "$(json "$dir/summary.json" 'd["complete"]')" = False ] || fail "summary not marked incomplete"
  [ "$(json "$dir/summary.json" '"short read" in d["stop_reason"]')" = True ] || fail "stop_reason"
  rm -rf "$WORK/data"
done
echo OK
