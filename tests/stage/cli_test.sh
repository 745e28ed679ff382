#!/usr/bin/env bash
# stage's command line: usage errors exit 2 before any work and say what to do; --help has
# examples; --report sums result folders into a campaign table.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers

expect_exit 2 "$WORK/e1" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/d" --sha256 xyz
contains "$WORK/e1" "--sha256 'xyz' is not 64 hex digits"
expect_exit 2 "$WORK/e2" "$TRAINBENCH" stage "$STAGE_WWW/small.bin" "$WORK/d" --mirror "$STAGE_MIRROR"
contains "$WORK/e2" "is a local path"
expect_exit 2 "$WORK/e3" "$TRAINBENCH" stage ftp://x/y "$WORK/d"
contains "$WORK/e3" "unknown scheme"
expect_exit 2 "$WORK/e4" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/d" --chunk-size lots
contains "$WORK/e4" "--chunk-size 'lots'"
expect_exit 2 "$WORK/e5" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin"
contains "$WORK/e5" "stage needs SOURCE and DEST"
expect_exit 2 "$WORK/e6" "$TRAINBENCH" stage "$STAGE_ORIGIN/" "$WORK/d"
contains "$WORK/e6" "names no object"
expect_exit 2 "$WORK/e7" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/d" --checksums "$WORK/none"
contains "$WORK/e7" "--checksums: cannot read"
check "no work was done" [ ! -e "$WORK/d/small.bin.part" ]
expect_exit 0 "$WORK/help" "$TRAINBENCH" stage --help
contains "$WORK/help" "Examples:"
contains "$WORK/help" "--mirror"

# A 404 at the origin: exit 1 at once, naming the URL.
expect_exit 1 "$WORK/e8" "$TRAINBENCH" stage "$STAGE_ORIGIN/missing.bin" "$WORK/d" --no-progress --output "$WORK/results"
contains "$WORK/e8" "$STAGE_ORIGIN/missing.bin does not exist at the origin (HTTP 404)"

# A folder of two files, then the campaign over every result so far.
mkdir -p "$WORK/src/sub"
head -c 3000000 /dev/urandom >"$WORK/src/a.bin"
head -c 10 /dev/urandom >"$WORK/src/sub/b.bin"
: >"$WORK/src/empty.bin"
expect_exit 0 "$WORK/o1" "$TRAINBENCH" stage "$WORK/src" "$WORK/copy" --chunk-size 1MiB --no-progress --output "$WORK/results"
check "a folder is copied whole" diff -r -x .trainbench.lock "$WORK/src" "$WORK/copy"
# As for an s3:// prefix (the same path): one line for the objects without a checksum.
check "one 'not verified' line for the folder" [ "$(grep -c "not verified" "$WORK/o1")" = 1 ]
contains "$WORK/o1" "3 objects are not verified (e.g. a.bin)"
expect_exit 0 "$WORK/report" "$TRAINBENCH" stage --report "$WORK/results"
cat "$WORK/report"
check "two jobs, one failed" [ "$(json_last_line "$WORK/report" '(d["trainbench_campaign"]["jobs"], d["trainbench_campaign"]["failed"])')" = "(2, 1)" ]
contains "$WORK/report" "transfer hours"
# Two stages into one DEST: the second is refused at once, naming the first; the first ends well.
"$TRAINBENCH" stage "$STAGE_ORIGIN/slow/small.bin" "$WORK/both" --streams 1 --no-progress \
  --output "$WORK/results2" >"$WORK/first" 2>&1 &
pid=$!
for _ in $(seq 100); do
  [ -e "$WORK/both/small.bin.part" ] && break
  sleep 0.1
done
check "the first stage is under way" [ -e "$WORK/both/small.bin.part" ]
expect_exit 1 "$WORK/second" "$TRAINBENCH" stage "$STAGE_ORIGIN/small.bin" "$WORK/both" --no-progress \
  --output "$WORK/results2"
contains "$WORK/second" "is being written by another trainbench (pid $pid on "
code=0
wait "$pid" || code=$?
check "the first stage finished" [ "$code" = 0 ]
check "with the origin's bytes" [ "$(sha256sum <"$WORK/both/small.bin" | cut -d' ' -f1)" = "$STAGE_SMALL_SHA256" ]
expect_exit 2 "$WORK/e9" "$TRAINBENCH" stage --report "$WORK/nowhere"
contains "$WORK/e9" "--report $WORK/nowhere: no such folder"
done_ok
