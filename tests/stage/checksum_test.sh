#!/usr/bin/env bash
# Integrity: a wrong --sha256 fails with exit 1 naming the object, after fetching every
# chunk again finds none that differs; nothing gets the final name, and a rerun with the
# right checksum finishes without fetching. Bytes corrupted on the way (fault_proxy flips a
# byte in some responses) are found by the re-fetch, replaced, and the object verifies.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers
bad=$(printf '0%.0s' $(seq 64))

# 1. A wrong checksum.
expect_exit 1 "$WORK/out1" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/dest" \
  --sha256 "$bad" --no-progress --output "$WORK/results"
cat "$WORK/out1"
contains "$WORK/out1" "small.bin: sha-256 $STAGE_SMALL_SHA256 does not match $bad from --sha256"
contains "$WORK/out1" "every chunk fetched again matched the first fetch"
check "nothing under the final name" [ ! -e "$WORK/dest/small.bin" ]
check "the part file is kept" [ -s "$WORK/dest/small.bin.part" ]
check "summary says failed" [ "$(json "$(stage_summary_of "$WORK/out1")" '(d["complete"], d["objects"][0]["status"])')" = "(False, 'failed')" ]
mark=$(stage_log_mark)
expect_exit 0 "$WORK/out2" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/dest" \
  --sha256 "$STAGE_SMALL_SHA256" --no-progress --output "$WORK/results"
check "the rerun fetched nothing" [ "$(stage_origin_bytes_since "$mark" /small.bin)" = 0 ]
check "staged" [ "$(sha256sum <"$WORK/dest/small.bin" | cut -d' ' -f1)" = "$STAGE_SMALL_SHA256" ]

# 2. Transient corruption: some of the first responses have a byte flipped.
fault_proxy_start "127.0.0.1:${STAGE_ORIGIN##*:}" "$WORK/corrupt.json" --seed 3 --corrupt 0.3 --fault-requests 24
t0=$(now)
expect_exit 0 "$WORK/out3" "$TRAINBENCH" stage "$FAULT_PROXY_ENDPOINT/small.bin" "$WORK/dest2" \
  --chunk-size 4MiB --sha256 "$STAGE_SMALL_SHA256" --no-progress --output "$WORK/results"
secs=$(elapsed "$t0")
fault_proxy_stop
cat "$WORK/out3"
corrupted=$(json "$WORK/corrupt.json" 'd["corrupted"]')
check "the proxy corrupted responses" [ "$corrupted" -gt 0 ]
check "the corrupted chunks were replaced" [ "$(json "$(stage_summary_of "$WORK/out3")" 'len(d["objects"][0]["repaired_ranges"])')" = "$corrupted" ]
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest2/small.bin" | cut -d' ' -f1)" = "$STAGE_SMALL_SHA256" ]
stage_check_account "$WORK/out3" "$secs"

# 3. A wrong file of the right size already at DEST is hashed, found wrong and fetched again;
# a right one is kept without fetching.
mkdir -p "$WORK/dest3"
head -c "$STAGE_SMALL_BYTES" /dev/urandom >"$WORK/dest3/small.bin"
mark=$(stage_log_mark)
expect_exit 0 "$WORK/out4" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/dest3" \
  --sha256 "$STAGE_SMALL_SHA256" --no-progress --output "$WORK/results"
cat "$WORK/out4"
contains "$WORK/out4" "does not match $STAGE_SMALL_SHA256 from --sha256: fetching it again"
check "the wrong file was replaced" [ "$(sha256sum <"$WORK/dest3/small.bin" | cut -d' ' -f1)" = "$STAGE_SMALL_SHA256" ]
check "it was fetched" [ "$(stage_origin_bytes_since "$mark" /small.bin)" = "$STAGE_SMALL_BYTES" ]
mark=$(stage_log_mark)
expect_exit 0 "$WORK/out5" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/dest3" \
  --sha256 "$STAGE_SMALL_SHA256" --no-progress --output "$WORK/results"
check "a right file is kept unfetched" [ "$(stage_origin_bytes_since "$mark" /small.bin)" = 0 ]
check "and called present, hashed now" [ "$(json "$(stage_summary_of "$WORK/out5")" '(d["objects"][0]["status"], d["objects"][0]["checksum"])')" = "('present', 'sha-256 (--sha256), hashed now')" ]
done_ok
