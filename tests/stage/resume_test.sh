#!/usr/bin/env bash
# A stage killed with SIGKILL mid-transfer resumes: the rerun fetches from the origin only
# the bytes the journal does not list, whole chunks and each stream's high-water mark within
# its chunk (counted in nginx's access log), so the two runs together cost the origin at most
# 1.05x the file; the result is the origin's bytes. Ctrl-C (SIGINT) stops with 130, results marked incomplete, and resumes.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers
chunk=$((4 << 20))
journal=$WORK/dest/big.bin.part.journal

# wait_chunks N PID: until the journal lists N chunks (bounded: 40 s) or PID ended.
wait_chunks() {
  local i
  for i in $(seq 400); do
    [ -f "$journal" ] && [ "$(grep -c '^c ' "$journal" || true)" -ge "$1" ] && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

mark=$(stage_log_mark)
"$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" --chunk-size 4MiB --streams 4 \
  --sha256 "$STAGE_BIG_SHA256" --no-progress --output "$WORK/results" >"$WORK/out1" 2>&1 &
pid=$!
check "the journal grows" wait_chunks 40 "$pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
journaled=$(grep -c '^c ' "$journal")
first=$(stage_origin_bytes_since "$mark" /big.bin)
echo "killed: $journaled chunks journaled, the origin had sent $first bytes"
check "nothing under the final name" [ ! -e "$WORK/dest/big.bin" ]
check "some chunks are missing" [ "$journaled" -lt $((STAGE_BIG_BYTES / chunk)) ]

mark=$(stage_log_mark)
t0=$(now)
expect_exit 0 "$WORK/out2" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" \
  --chunk-size 4MiB --streams 4 --sha256 "$STAGE_BIG_SHA256" --no-progress --output "$WORK/results"
secs=$(elapsed "$t0")
cat "$WORK/out2"
second=$(stage_origin_bytes_since "$mark" /big.bin)
resumed=$(json_last_line "$WORK/out2" 'd["trainbench_stage"]["resumed_bytes"]')
echo "rerun: the origin sent $second bytes; $resumed were resumed"
check "the rerun fetched only what was not journaled" [ "$second" = $((STAGE_BIG_BYTES - resumed)) ]
check "resumed at least the whole chunks journaled" [ "$resumed" -ge $((journaled * chunk)) ]
"$PY" -c "import sys; f, s, n = map(int, sys.argv[1:]); print(f'the origin served {(f + s) / n:.3f}x the file'); sys.exit(0 if f + s <= 1.05 * n else 1)" \
  "$first" "$second" "$STAGE_BIG_BYTES" || fail "a SIGKILL cost more than 5% of the file"
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]
check "journal removed" [ ! -e "$journal" ]
stage_check_account "$WORK/out2" "$secs"

# As the issue found it: 4 streams of 8 MiB chunks killed at 2 s, at a rate where a second
# of unjournaled bytes would cost 15% of the file.
rm -rf "$WORK/dest"
mark=$(stage_log_mark)
"$TRAINBENCH" stage "$STAGE_ORIGIN/slow/big.bin" "$WORK/dest" --chunk-size 8MiB --streams 4 \
  --no-progress --output "$WORK/results" >"$WORK/out5" 2>&1 &
pid=$!
sleep 2
check "still fetching at 2 s" kill -0 "$pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
first=$(stage_origin_bytes_since "$mark" /slow/big.bin)
mark=$(stage_log_mark)
expect_exit 0 "$WORK/out6" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" \
  --chunk-size 8MiB --streams 4 --sha256 "$STAGE_BIG_SHA256" --no-progress --output "$WORK/results"
second=$(stage_origin_bytes_since "$mark" /big.bin)
echo "killed at 2 s after $first bytes; the rerun fetched $second"
check "the first run was cut short" [ "$first" -lt "$STAGE_BIG_BYTES" ]
"$PY" -c "import sys; f, s, n = map(int, sys.argv[1:]); print(f'the origin served {(f + s) / n:.3f}x the file'); sys.exit(0 if f + s <= 1.05 * n else 1)" \
  "$first" "$second" "$STAGE_BIG_BYTES" || fail "a SIGKILL at 2 s cost more than 5% of the file"
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]

# Ctrl-C: exit 130, an incomplete summary, then a rerun finishes.
rm -rf "$WORK/dest"
"$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" --chunk-size 4MiB --streams 2 \
  --no-progress --output "$WORK/results" >"$WORK/out3" 2>&1 &
pid=$!
check "the journal grows" wait_chunks 10 "$pid"
kill -INT "$pid"
code=0
wait "$pid" || code=$?
cat "$WORK/out3"
check "Ctrl-C exits 130" [ "$code" = 130 ]
check "summary marked incomplete" [ "$(json "$(stage_summary_of "$WORK/out3")" '(d["complete"], d["stop_reason"])')" = "(False, 'interrupted')" ]
check "nothing under the final name" [ ! -e "$WORK/dest/big.bin" ]
check "journal kept" [ -s "$journal" ]
expect_exit 0 "$WORK/out4" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" \
  --chunk-size 4MiB --streams 4 --sha256 "$STAGE_BIG_SHA256" --no-progress --output "$WORK/results"
check "resumed after Ctrl-C" [ "$(json_last_line "$WORK/out4" 'd["trainbench_stage"]["resumed_bytes"] > 0')" = True ]
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]
done_ok
