#!/usr/bin/env bash
# A stage killed with SIGKILL mid-transfer resumes: the rerun fetches from the origin only
# the chunks the journal does not list (counted in nginx's access log), and the result is
# the origin's bytes. Ctrl-C (SIGINT) stops with 130, results marked incomplete, and resumes.
source "$(dirname "$0")/lib.sh"
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

mark=$(log_mark)
"$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" --chunk-size 4MiB --streams 4 \
  --sha256 "$STAGE_BIG_SHA256" --no-progress --output "$WORK/results" >"$WORK/out1" 2>&1 &
pid=$!
check "the journal grows" wait_chunks 40 "$pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
journaled=$(grep -c '^c ' "$journal")
first=$(origin_bytes_since "$mark" /big.bin)
echo "killed: $journaled chunks journaled, the origin had sent $first bytes"
check "nothing under the final name" [ ! -e "$WORK/dest/big.bin" ]
check "some chunks are missing" [ "$journaled" -lt $((STAGE_BIG_BYTES / chunk)) ]

mark=$(log_mark)
t0=$(now)
expect_exit 0 "$WORK/out2" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" \
  --chunk-size 4MiB --streams 4 --sha256 "$STAGE_BIG_SHA256" --no-progress --output "$WORK/results"
secs=$(elapsed "$t0")
cat "$WORK/out2"
second=$(origin_bytes_since "$mark" /big.bin)
want=$((STAGE_BIG_BYTES - journaled * chunk))
echo "rerun: the origin sent $second bytes; $want were not journaled"
check "the rerun fetched only the chunks not journaled" [ "$second" = "$want" ]
check "resumed bytes reported" [ "$(line_get "$WORK/out2" 'j["trainbench_stage"]["resumed_bytes"]')" = $((journaled * chunk)) ]
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]
check "journal removed" [ ! -e "$journal" ]
check_account "$WORK/out2" "$secs"

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
check "summary marked incomplete" [ "$(json_get "$(summary_of "$WORK/out3")" '(j["complete"], j["stop_reason"])')" = "(False, 'interrupted')" ]
check "nothing under the final name" [ ! -e "$WORK/dest/big.bin" ]
check "journal kept" [ -s "$journal" ]
expect_exit 0 "$WORK/out4" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" \
  --chunk-size 4MiB --streams 4 --sha256 "$STAGE_BIG_SHA256" --no-progress --output "$WORK/results"
check "resumed after Ctrl-C" [ "$(line_get "$WORK/out4" 'j["trainbench_stage"]["resumed_bytes"] > 0')" = True ]
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]
done_ok
