#!/usr/bin/env bash
# With computation_time 0, the bytes a run reads equal the dataset's bytes x epochs
# (every sample once per epoch, its whole record), through every read path: plain,
# small transfer_size pieces, O_DIRECT, shared file access, read_type memory, io_uring, a
# pread loop with a deep queue (a thread per read), and the null engine (which reads
# nothing but reports what it was asked for, and opens no file).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
dataset_bytes=$(json "$WORK/data/trainbench_manifest.json" 'd["total_bytes"]')
check() {  # check NAME EXPECTED_BYTES args...
  local name=$1 expected=$2
  shift 2
  "$TB" run resnet50_h100 "${TINY[@]}" train.computation_time=0 reader.batch_size=16 "$@" \
    >"$name.txt" 2>"$name.err" || { cat "$name.err"; fail "$name: run failed"; }
  last_line_json "$name.txt" "$name.json"
  local got requested
  got=$(json "$name.json" 'd["trainbench_metrics"]["bytes_read"]')
  requested=$(json "$name.json" 'd["trainbench_metrics"]["requested_bytes"]')
  [ "$requested" = "$expected" ] || fail "$name: requested $requested, expected $expected"
  if [ "${ALIGNED:-0}" = 1 ]; then
    [ "$got" -ge "$expected" ] || fail "$name: read $got < $expected"
  else
    [ "$got" = "$expected" ] || fail "$name: read $got bytes, expected $expected"
  fi
}
check plain $((dataset_bytes * 3)) train.epochs=3
# No checkpoint was written or read: those rates were not measured, so null, not 0.0.
[ "$(json plain.json '[d["trainbench_metrics"][k] for k in ("checkpoint_write_GB_per_second",
  "checkpoint_read_GB_per_second")]')" = "[None, None]" ] || fail "checkpoint rates of no checkpoint: $(cat plain.json)"
gap=$(json "$(results_dir)/summary.json" 'd["checkpoint_gap_s"]')
[ "$gap" = None ] || fail "no checkpoint, yet checkpoint_gap_s $gap (null when not measured)"
check pieces $((dataset_bytes * 2)) train.epochs=2 reader.transfer_size=4096 reader.read_threads=4 \
  reader.sample_shuffle=seed reader.file_shuffle=seed --accelerators 5
# 400 samples, 5 accelerators x 16: 5 steps of 80 = 400, every sample once.
check shared $((dataset_bytes * 2)) train.epochs=2 reader.file_access=shared --accelerators 5
check memory "$dataset_bytes" train.epochs=3 reader.read_type=memory
ALIGNED=1 check direct $((dataset_bytes * 2)) train.epochs=2 reader.odirect=True
dir=$(results_dir)
python3 - "$dir/summary.json" "$dataset_bytes" <<'PY' || fail "I/O characterization"
import json, sys
d = json.load(open(sys.argv[1]))
io = d["io_characterization"]
assert io["POSIX_OPENS"] == 4, io
assert io["POSIX_BYTES_READ"] >= 2 * int(sys.argv[2]), io
assert io["access_sizes"]["POSIX_SIZE_READ_100K_1M"] == io["POSIX_READS"] == 800, io
assert io["files_read"] == 4 and io["files_reread"] == 4, io
assert d["cache"]["fits_in_page_cache"] is True
PY
# io_uring: several pieces per sample, many in flight per reader thread.
check uring $((dataset_bytes * 2)) train.epochs=2 --io-engine uring reader.transfer_size=32768 \
  reader.read_threads=4 --accelerators 5 --io-threads 1
ALIGNED=1 check uring_direct $((dataset_bytes * 2)) train.epochs=2 --io-engine uring reader.odirect=True
check pread_deep $((dataset_bytes * 2)) train.epochs=2 reader.transfer_size=32768 \
  reader.read_threads=4 --accelerators 5 --io-threads 1 --io-depth 8
# A deep pread queue by hand with the default threads: threads x depth kept within the
# 4096 reads in flight that --io-threads x --io-depth may ask for.
check pread_1024 "$dataset_bytes" train.epochs=1 reader.read_threads=4 --accelerators 5 --io-depth 1024
[ "$(json "$(results_dir)/summary.json" 'd["io_threads"] * d["io_depth"] <= 4096 and d["io_depth"] == 1024')" = True ] ||
  fail "pread_1024: $(json "$(results_dir)/summary.json" '(d["io_threads"], d["io_depth"])')"
check null $((dataset_bytes * 2)) train.epochs=2 reader.transfer_size=32768 --io-engine null
dir=$(results_dir)
python3 - "$dir/summary.json" "$dataset_bytes" <<'PY' || fail "null engine's summary"
import json, sys
d = json.load(open(sys.argv[1]))
io = d["io_characterization"]
assert d["read_engine"].startswith("null"), d["read_engine"]
assert io["POSIX_OPENS"] == 0, io  # nothing was opened
# Every sample of 2 epochs in 32 KiB pieces: the reads trainbench would have issued.
assert io["POSIX_BYTES_READ"] == 2 * int(sys.argv[2]), io
assert io["POSIX_READS"] > 800 and io["POSIX_MAX_BYTE_READ_SIZE"] == 32768, io
assert d["cache"]["device_read_bytes"] == 0 or not d["cache"]["device_read_available"], d["cache"]
PY
echo OK
