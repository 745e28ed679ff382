#!/usr/bin/env bash
# stage --extract: a tar (with a nested class tar, as ImageNet's) streams into DEST while it
# downloads, no copy of the archive on disk; the files are the archive's, the time account
# adds up with extract_s in it; a SIGKILL mid-stream resumes from the journaled offset and
# ends with the same files. Hostile archives: extract_hostile_test.sh.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers

name=extract-$$.tar
at_exit 'rm -f "$STAGE_WWW/$name"'
mkdir -p "$WORK/src/n01440764" "$WORK/top"
for i in 1 2 3 4; do head -c $((i * 300000)) /dev/urandom >"$WORK/src/n01440764/img_$i.JPEG"; done
tar -cf "$WORK/top/n01440764.tar" -C "$WORK/src/n01440764" .
head -c 60000000 /dev/urandom >"$WORK/top/big.dat"
echo hello >"$WORK/top/readme.txt"
tar -cf "$STAGE_WWW/$name" -C "$WORK/top" .
sha=$(sha256sum <"$STAGE_WWW/$name" | cut -d' ' -f1)

# same_files DIR: DIR holds the archive's files (the nested tar as a folder).
same_files() {
  cmp -s "$1/big.dat" "$WORK/top/big.dat" && cmp -s "$1/readme.txt" "$WORK/top/readme.txt" &&
    diff -r "$1/n01440764" "$WORK/src/n01440764" >/dev/null
}

t0=$(now)
expect_exit 0 "$WORK/out1" "$TRAINBENCH" stage "$STAGE_ORIGIN/$name" "$WORK/dest" --extract \
  --chunk-size 1MiB --streams 4 --sha256 "$sha" --no-progress --output "$WORK/results"
secs=$(elapsed "$t0")
cat "$WORK/out1"
check "the archive's files" same_files "$WORK/dest"
check "no copy of the archive" [ ! -e "$WORK/dest/$name" ] && [ ! -e "$WORK/dest/$name.part" ]
check "extract time counted" [ "$(json_last_line "$WORK/out1" 'd["trainbench_stage"]["extract_s"] > 0')" = True ]
stage_check_account "$WORK/out1" "$secs"

# Killed mid-stream (requests slowed by the proxy), then resumed.
fault_proxy_start "127.0.0.1:${STAGE_ORIGIN##*:}" "$WORK/slow.json" --delay 1.0 --delay-ms 150
"$TRAINBENCH" stage "$FAULT_PROXY_ENDPOINT/$name" "$WORK/dest2" --extract --chunk-size 1MiB --streams 2 \
  --no-progress --output "$WORK/results" >"$WORK/out2" 2>&1 &
pid=$!
journal=$WORK/dest2/$name.extract.journal
for _ in $(seq 300); do
  [ -f "$journal" ] && grep -q '^r [1-9]' "$journal" && break
  sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
fault_proxy_stop
check "a resume offset was journaled" grep -q '^r [1-9]' "$journal"
expect_exit 0 "$WORK/out3" "$TRAINBENCH" stage "$STAGE_ORIGIN/$name" "$WORK/dest2" --extract \
  --chunk-size 1MiB --streams 4 --no-progress --output "$WORK/results"
cat "$WORK/out3"
check "resumed, not from the start" [ "$(json_last_line "$WORK/out3" 'd["trainbench_stage"]["resumed_bytes"] > 0')" = True ]
check "the archive's files after the resume" same_files "$WORK/dest2"

# Not a tar: exit 1 with a message that prints no raw bytes of the network, and the failed
# job's account (summary.json) is written all the same.
garbage=garbage-$$.tar
"$PY" -c "import random, sys; sys.stdout.buffer.write(random.Random(5).randbytes(20000))" >"$STAGE_WWW/$garbage"
expect_exit 1 "$WORK/out4" "$TRAINBENCH" stage "$STAGE_ORIGIN/$garbage" "$WORK/dest4" --extract \
  --no-progress --output "$WORK/results4"
rm -f "$STAGE_WWW/$garbage"
cat -v "$WORK/out4"
contains "$WORK/out4" "tar header at archive offset 0"
# It names the object and the way out (issue 34), and counts the 20 KB that came.
contains "$WORK/out4" "error: $garbage: tar header at archive offset 0"
contains "$WORK/out4" "it is not a tar archive (nor a gzip'd one): drop --extract to fetch it as a file"
"$PY" - "$WORK/out4" <<'PY' || fail "the output holds raw bytes from the network"
import sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # raises on bytes that are not UTF-8
bad = [c for c in text if (ord(c) < 32 and c not in "\n") or 0x7f <= ord(c) < 0xa0]
sys.exit(1 if bad else 0)
PY
summary=$(ls "$WORK"/results4/*/summary.json 2>/dev/null | head -n 1)
check "the failed job wrote summary.json" [ -s "$summary" ]
check "its account says why it stopped" [ "$(json "$summary" '(d["complete"], "tar header" in d["stop_reason"])')" = "(False, True)" ]
check "the object failed, with the bytes that came" [ "$(json "$summary" '(d["objects"][0]["status"], d["objects"][0]["fetched_bytes"])')" = "('failed', 20000)" ]
done_ok
