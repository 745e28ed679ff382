#!/usr/bin/env bash
# stage through a mirror (squid) with a second mirror that is down: the down one is demoted
# at once, squid serves every byte, the staged file is the origin's (sha256), nothing
# partial is left, and the time account adds up. Then through a director that answers 307:
# the bytes are booked to the host that served them. Then a local file.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers

# 1. Mirrors: the down one first, then squid.
t0=$(now)
expect_exit 0 "$WORK/out1" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" \
  --mirror "$STAGE_DOWN_MIRROR" --mirror "$STAGE_MIRROR" --sha256 "$STAGE_BIG_SHA256" \
  --no-progress --output "$WORK/results"
secs=$(elapsed "$t0")
cat "$WORK/out1"
check "staged bytes are the origin's" [ "$(sha256sum <"$WORK/dest/big.bin" | cut -d' ' -f1)" = "$STAGE_BIG_SHA256" ]
check "no part file or journal left" [ -z "$(find "$WORK/dest" -name '*.part*')" ]
contains "$WORK/out1" "mirror $STAGE_DOWN_MIRROR demoted"
summary=$(stage_summary_of "$WORK/out1")
check "summary written" [ -s "$summary" ]
check "complete" [ "$(json "$summary" 'd["complete"]')" = True ]
check "the down mirror is demoted and served nothing" [ "$(json "$summary" \
  "[(s['demoted'], s['bytes']) for s in d['sources'] if s['source'] == '$STAGE_DOWN_MIRROR'][0]")" = "(True, 0)" ]
check "squid served every byte" [ "$(json "$summary" \
  "[s['bytes'] for s in d['sources'] if s['source'] == '$STAGE_MIRROR'][0]")" = "$STAGE_BIG_BYTES" ]
check "the origin served none directly" [ "$(json "$summary" \
  "[s['bytes'] for s in d['sources'] if s['role'] == 'origin'][0]")" = 0 ]
check "latency percentiles" "$PY" -c "import json,sys; s=[s for s in json.load(open(sys.argv[1]))['sources'] if s['bytes']][0]; assert 0 < s['latency_p50_ms'] <= s['latency_p99_ms']" "$summary"
check "the last line is the stage's" [ "$(json_last_line "$WORK/out1" 'd["trainbench_stage"]["bytes"]')" = "$STAGE_BIG_BYTES" ]
stage_check_account "$WORK/out1" "$secs"
# The time series (--interval 1, the default): rows whose MB/s x seconds add up to the bytes
# fetched, the last one "done", and what sampling cost.
check "time series of the stage" "$PY" - "$(dirname "$summary")" "$STAGE_BIG_BYTES" <<'PY'
import csv, json, sys
folder, want = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(folder + "/timeseries.csv")))
s = json.load(open(folder + "/summary.json"))
assert rows and rows[-1]["phase"] == "done" and s["timeseries_interval_s"] == 1, rows[-1]
got = sum(float(r["io_MB_per_second"]) * float(r["interval_s"]) * 1e6 for r in rows)
assert abs(got - want) <= 0.01 * want, (got, want)
assert all(int(r["reads_in_flight"]) <= 4 for r in rows), rows
assert 0 < s["timeseries_cpu_seconds"] < 1, s["timeseries_cpu_seconds"]
PY

# A second run finds the object staged and fetches nothing.
mark=$(stage_log_mark)
expect_exit 0 "$WORK/out1b" "$TRAINBENCH" stage "$STAGE_ORIGIN/big.bin" "$WORK/dest" --no-progress --output "$WORK/results"
check "nothing fetched again" [ "$(stage_origin_bytes_since "$mark" /big.bin)" = 0 ]
contains "$WORK/out1b" "big.bin: present"

# 2. A director answering 307 to the origin: the origin's host gets the bytes in its own row.
t0=$(now)
expect_exit 0 "$WORK/out2" "$TRAINBENCH" stage "$STAGE_DIRECTOR/small.bin" "$WORK/dest2" \
  --chunk-size 4MiB --streams 3 --no-progress --output "$WORK/results"
secs=$(elapsed "$t0")
cat "$WORK/out2"
check "redirected bytes are the origin's" [ "$(sha256sum <"$WORK/dest2/small.bin" | cut -d' ' -f1)" = "$STAGE_SMALL_SHA256" ]
summary=$(stage_summary_of "$WORK/out2")
check "the director served no bytes but took the requests" [ "$(json "$summary" \
  "[(s['role'], s['bytes'], s['requests'] > 0) for s in d['sources'] if s['source'] == '$STAGE_DIRECTOR'][0]")" = "('origin', 0, True)" ]
check "the redirect target's row has every byte" [ "$(json "$summary" \
  "[(s['role'], s['bytes']) for s in d['sources'] if s['source'] == '$STAGE_ORIGIN'][0]")" = "('redirect', $STAGE_SMALL_BYTES)" ]
contains "$WORK/out2" "not verified: no checksum"
stage_check_account "$WORK/out2" "$secs"

# 3. A local file, with --checksums.
echo "$STAGE_SMALL_SHA256  small.bin" >"$WORK/sums"
expect_exit 0 "$WORK/out3" "$TRAINBENCH" stage "$STAGE_WWW/small.bin" "$WORK/dest3" \
  --checksums "$WORK/sums" --no-progress --output "$WORK/results"
check "local copy" cmp -s "$STAGE_WWW/small.bin" "$WORK/dest3/small.bin"
check "the checksum came from --checksums" [ "$(json "$(stage_summary_of "$WORK/out3")" 'd["objects"][0]["checksum"]')" = "sha-256 (--checksums $WORK/sums)" ]
# 4. A mirror on the origin's own host:port, at a path the origin does not have (issue 46.25):
# its 404 demotes it and the origin serves; the sources table keeps the two apart, and the
# 404's HTML page is named by its title, never printed inline.
expect_exit 0 "$WORK/out4" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/dest4" \
  --mirror "$STAGE_ORIGIN/no-such-mirror/" --no-progress --output "$WORK/results"
check "two rows on one server: the mirror demoted, the origin served" "$PY" - \
  "$(stage_summary_of "$WORK/out4")" "$STAGE_ORIGIN" "$STAGE_SMALL_BYTES" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted((s["role"], s["demoted"], s["bytes"]) for s in d["sources"] if s["source"] == sys.argv[2])
assert rows == [("mirror", True, 0), ("origin", False, int(sys.argv[3]))], d["sources"]
PY
if grep -qi "<html\|<center>\|<head>" "$WORK/out4"; then cat "$WORK/out4"; fail "an HTML body printed inline"; fi
done_ok
