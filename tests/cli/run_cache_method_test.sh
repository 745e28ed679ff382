#!/usr/bin/env bash
# The page cache's share of a run's reads, told by the method that can see them (issue 47).
# On this local disk /proc/self/io's read_bytes does (cache.method "proc_io"); on a network or
# FUSE mount it never counts a read, so there the pages resident before each read are asked of
# mincore(2) ("mincore"), which TRAINBENCH_CACHE_METHOD=mincore forces here. A cold run (the
# dataset's pages dropped with posix_fadvise DONTNEED) is storage's, a warm run right after is
# the cache's, a cold run of two epochs half and half (the second pass looks again), and in one
# run mincore's figure and /proc's agree within a tenth of the bytes read, which a busy host
# keeps (another test's --drop-caches can empty the cache mid-run: both see it alike).
# O_DIRECT and a value the variable does not take are refused words, not numbers.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset

evict() {  # drops the dataset's pages from the page cache
  "$PY" - "$WORK/data" <<'PY'
import os, sys
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        fd = os.open(os.path.join(root, name), os.O_RDONLY)
        os.fdatasync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
PY
}

# cache_run NAME METHOD [overrides...]: a storage-only run with TRAINBENCH_CACHE_METHOD=METHOD
# (auto: by the file system), its cache block saved as NAME.json.
cache_run() {
  local name=$1 method=$2
  shift 2
  TRAINBENCH_CACHE_METHOD=$method "$TB" run resnet50_h100 "${TINY[@]}" train.computation_time=0 \
    train.epochs=1 "$@" >"$name.out" 2>"$name.err" || { cat "$name.err" >&2; fail "$name: run failed"; }
  json "$(newest_summary)" 'json.dumps(d["cache"])' >"$name.json"
}
# figure NAME EXPR: EXPR over NAME's cache block `c`.
figure() { json "$1.json" "(lambda c: $2)(d)"; }
# expect NAME CONDITION WHAT: CONDITION (Python, over `c`) holds for NAME's cache block.
expect() {
  [ "$(figure "$1" "bool($2)")" = True ] || fail "$1: $3: $(cat "$1.json")"
  checks=$((checks + 1))
}

# Cold, by /proc/self/io: the device read what the run read. Where this host keeps the pages
# anyway (a file system DONTNEED does not drop), nothing below can be told.
evict
cache_run cold_proc auto
evicted=$(figure cold_proc 'c["device_read_bytes"] >= 0.8 * c["bytes_read"]')
skip_unless "[ $evicted = True ]" "posix_fadvise DONTNEED does not drop the dataset's pages here \
($(figure cold_proc 'c["device_read_bytes"]') of $(figure cold_proc 'c["bytes_read"]') bytes came from the device)"
expect cold_proc 'c["method"] == "proc_io" and "/proc/self/io" in c["method_reason"]' "the method on a local disk"
expect cold_proc 'c["storage_read_bytes"] == c["device_read_bytes"]' "proc_io's storage bytes are the device's"
expect cold_proc 'c["page_cache_fraction"] < 0.2' "a cold run by proc_io"

# Cold, by mincore: storage's too, and /proc's figure of the same run agrees.
evict
cache_run cold_mincore mincore
expect cold_mincore 'c["method"] == "mincore" and "TRAINBENCH_CACHE_METHOD=mincore" in c["method_reason"]' \
  "the forced method"
expect cold_mincore 'c["page_cache_fraction"] < 0.1' "a cold run by mincore is near 0 cached"
expect cold_mincore 'c["storage_read_bytes"] >= 0.9 * c["bytes_read"]' "storage bytes ~ bytes read"
expect cold_mincore 'abs(c["storage_read_bytes"] - c["device_read_bytes"]) <= 0.1 * c["bytes_read"]' \
  "mincore and /proc/self/io agree on a cold run"
expect cold_mincore 'c["unchecked_bytes"] == 0 and c["mincore_check_seconds"] > 0' "every read checked"

# Reads smaller than a page, across pages, from several threads: each page storage sent
# counts whole, once.
evict
cache_run pieces mincore reader.transfer_size=4096 reader.read_threads=4 reader.batch_size=16 \
  --accelerators 5
expect pieces 'c["page_cache_fraction"] < 0.1' "a cold run in 4 KiB pieces by mincore"
expect pieces 'abs(c["storage_read_bytes"] - c["device_read_bytes"]) <= 0.1 * c["bytes_read"]' \
  "mincore and /proc/self/io agree on 4 KiB pieces"

# Warm, right after: the cache's, by both. Another test's --drop-caches may empty the cache
# under a run (its device reads say so): that run is taken again, up to three times.
warm_run() {  # warm_run NAME METHOD
  local attempt
  for attempt in 1 2 3; do
    cache_run "$1" "$2"
    [ "$(figure "$1" 'c["device_read_bytes"] <= 0.1 * c["bytes_read"]')" = True ] && return 0
    echo "$1: the page cache was emptied under attempt $attempt: $(cat "$1.json")" >&2
  done
}
warm_run warm_mincore mincore
expect warm_mincore 'c["page_cache_fraction"] > 0.9' "a warm run by mincore is near 1 cached"
expect warm_mincore 'abs(c["storage_read_bytes"] - c["device_read_bytes"]) <= 0.1 * c["bytes_read"]' \
  "mincore and /proc/self/io agree on a warm run"
warm_run warm_proc auto
expect warm_proc 'c["method"] == "proc_io" and c["page_cache_fraction"] > 0.9' "a warm run by proc_io"

# Two epochs from cold: the first pass is storage's, the second (looked at afresh) the cache's
# (unless the cache was emptied between them: then /proc/self/io says so too).
evict
cache_run two_epochs mincore train.epochs=2
expect two_epochs 'abs(c["storage_read_bytes"] - c["device_read_bytes"]) <= 0.1 * c["bytes_read"]' \
  "mincore and /proc/self/io agree over two epochs"
expect two_epochs 'c["device_read_bytes"] > 0.6 * c["bytes_read"] or 0.4 <= c["page_cache_fraction"] <= 0.6' \
  "two epochs from cold are half cached"

# O_DIRECT bypasses the page cache: no method can tell, and it says why.
cache_run direct mincore reader.odirect=True
expect direct 'c["method"] == "none" and "O_DIRECT" in c["method_reason"]' "O_DIRECT's method"
expect direct 'c["page_cache_fraction"] is None and c["storage_read_bytes"] is None' \
  "O_DIRECT's figures are unknown, not numbers"

expect_exit 2 bogus.out env TRAINBENCH_CACHE_METHOD=bogus "$TB" run resnet50_h100 "${TINY[@]}" \
  train.computation_time=0 train.epochs=1
contains bogus.out "TRAINBENCH_CACHE_METHOD=bogus: it takes proc_io, mincore or auto"
done_ok
