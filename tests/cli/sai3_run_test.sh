#!/usr/bin/env bash
# trainbench run CONFIG.yaml with sai3-bench's resnet50 1-host config, scaled down by
# overrides, against a file:// target (whose re-read objects get the page-cache warning a run
# gives of a small dataset): prepare makes exactly `count` objects of the asked sizes
# in the directory_structure's folders; the op mix (get, put, stat, list, delete added by
# overrides) keeps its weights, its per-op counts add up in summary.json, DELETE removes only
# what the job PUT; the time series, the final line and --op-log are there; a re-run resumes
# prepare; cleanup removes only what prepare wrote; an unknown key names the nearest one and
# values out of range exit 2 before anything is written; --s3-option is refused for DLIO's, and
# datagen names run for a sai3-bench config.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
config=$SRC/tests/data/sai3-bench/resnet50_1-host.yaml
t=$WORK/t
small=(target="file://$t/" duration=2s concurrency=4 perf_log.interval=0.2s output.folder="$WORK/out"
  prepare.ensure_objects.0.count=48 prepare.ensure_objects.0.size_spec.mean=16384
  prepare.ensure_objects.0.size_spec.std_dev=8192 prepare.ensure_objects.0.size_spec.min=4096
  prepare.ensure_objects.0.size_spec.max=65536 prepare.directory_structure.width=4
  prepare.directory_structure.files_per_dir=3)
mix=(workload.0.weight=50
  workload.1.op=put workload.1.path=out/ workload.1.object_size=4096 workload.1.weight=20
  workload.2.op=stat workload.2.path='scan.d*_w*.dir/**/*' workload.2.weight=15
  workload.3.op=list workload.3.path=scan.d1_w1.dir/ workload.3.weight=10
  workload.4.op=delete workload.4.path='out/*' workload.4.weight=5)
mkdir -p "$t/out" && echo not-trainbenchs >"$t/out/foreign.dat"

expect_exit 0 run.out "$TB" run "$config" "${small[@]}" "${mix[@]}" --no-progress --op-log "$WORK/ops.tsv"
contains run.out '"trainbench_sai3"'
contains run.out 'distributed.stages'  # a key it does not act on is named, with why
folder=$(json_last_line run.out 'd["trainbench"]["results"]')
check "prepare: exactly 48 objects, sizes in [4096, 65536], 3 in each of the 16 leaves" \
  "$PY" - "$t" <<'PY'
import collections, os, sys
root = sys.argv[1]
objs = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.startswith("prepared-")]
assert len(objs) == 48, len(objs)
names = sorted(os.path.relpath(o, root) for o in objs)
assert names[0] == "scan.d1_w1.dir/scan.d2_w1.dir/prepared-00000000.dat", names[:3]
sizes = [os.path.getsize(o) for o in objs]
assert all(4096 <= s <= 65536 for s in sizes), sizes
assert len(set(sizes)) > 10, sizes  # lognormal, not one size
leaves = collections.Counter(os.path.dirname(n) for n in names)
assert len(leaves) == 16 and set(leaves.values()) == {3}, leaves
PY
check "summary.json: per-op counts add up, weights kept, DELETE took only the job's PUTs" \
  "$PY" - "$folder" "$t" <<'PY'
import csv, json, os, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["kind"] == "sai3" and s["complete"] and s["errors"] == 0, s
ops = {o["op"]: o for o in s["ops"]}
assert set(ops) == {"GET", "PUT", "HEAD", "LIST", "DELETE"}, ops.keys()
assert sum(o["count"] for o in ops.values()) == s["operations"] > 200, s["operations"]
drawn = sum(o["count"] + o["skipped"] for o in ops.values())
for op, weight in (("GET", 50), ("PUT", 20), ("HEAD", 15), ("LIST", 10), ("DELETE", 5)):
    share = (ops[op]["count"] + ops[op]["skipped"]) / drawn
    assert abs(share - weight / 100) < 0.05, (op, share)
    assert ops[op]["latency_ms"]["p50"] > 0 and ops[op]["ops_per_second"] > 0, ops[op]
assert ops["GET"]["bytes"] > 0 and ops["PUT"]["bytes"] == 4096 * ops["PUT"]["count"], ops
assert s["prepare"]["objects"] == 48 and s["prepare"]["written"] == 48, s["prepare"]
left = sorted(os.listdir(sys.argv[2] + "/out"))
assert "foreign.dat" in left, left
assert len(left) == 1 + ops["PUT"]["count"] - ops["DELETE"]["count"], (len(left), ops)
assert all(n == "foreign.dat" or n.startswith("trainbench-r0-") for n in left), left
rows = list(csv.DictReader(open(sys.argv[1] + "/timeseries.csv")))
assert len(rows) >= 8, len(rows)
assert {r["phase"] for r in rows} >= {"workload"}, {r["phase"] for r in rows}
PY
# 48 small objects on file://, re-read for 2 s: the page cache serves them, and the job says so
# as a run says it of its dataset (the same words), with the figures in summary.json.
contains run.out "warning: the data its GETs read ("
contains run.out "the page cache can serve it, so this measures memory, not storage"
check "summary.json: the GETs' bytes against the host's memory" "$PY" - "$folder" "$t" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
c = s["cache"]
prepared = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(sys.argv[2])
               for f in fs if f.startswith("prepared-"))
assert 0 < c["get_bytes"] <= prepared, (c, prepared)
assert c["data_is_local"] and c["fits_in_page_cache"] and c["hosts"] == 1, c
assert c["host_memory_bytes"] > 5 * c["get_bytes"], c
PY
check "--op-log: a line for each GET the summary counts" "$PY" - "$folder" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
gets = [r for r in csv.DictReader(open("ops.tsv"), delimiter="\t") if r["op"] == "GET"]
assert len(gets) == {o["op"]: o for o in s["ops"]}["GET"]["count"], len(gets)
PY

# A re-run without force_overwrite finds every object whole.
expect_exit 0 again.out "$TB" run "$config" "${small[@]}" duration=0.5s prepare.force_overwrite=false \
  --no-progress
check "resume: nothing written again" test "$(json "$(json_last_line again.out 'd["trainbench"]["results"]')/summary.json" \
  'd["prepare"]["skipped"]')" = 48
# The prepare line's bytes beside its time are those written in it (it counted the 48 skipped
# objects' bytes as written in 0.3 s).
contains again.out "prepare: 48 objects (0 written, 48 already there; "
contains again.out "), 0 B written in "

# cleanup: what prepare wrote goes; what the workload PUT (and others') stays.
expect_exit 0 clean.out "$TB" run "$config" "${small[@]}" "${mix[@]}" duration=0.5s prepare.cleanup=true \
  --no-progress
check "cleanup: no prepared object left, the manifest gone, out/ kept" "$PY" - "$t" <<'PY'
import os, sys
root = sys.argv[1]
left = [f for _, _, fs in os.walk(root) for f in fs]
assert not [f for f in left if f.startswith("prepared-")], left
assert "trainbench_manifest.json" not in left and "foreign.dat" in left, left
PY

# Refusals, before anything is written.
expect_exit 2 typo.out "$TB" run "$config" "${small[@]}" target="file://$WORK/never/" concurency=8
contains typo.out "did you mean 'concurrency'"
expect_exit 2 zero.out "$TB" run "$config" "${small[@]}" target="file://$WORK/never/" concurrency=0
contains zero.out "concurrency"
# A value given on the command line is cited as that override, not as the config's line 1.
contains zero.out "override 'concurrency=0'"
check "an override's error does not cite the config's line 1" bash -c "! grep -q 'yaml:1:' '$WORK/zero.out'"
expect_exit 2 dur.out "$TB" run "$config" "${small[@]}" target="file://$WORK/never/" duration=-3s
contains dur.out "duration"
expect_exit 2 gcs.out "$TB" run "$config"
contains gcs.out "target=file:///"
expect_exit 2 flag.out "$TB" run "$config" "${small[@]}" --io-engine pread
contains flag.out "--io-engine"
check "nothing written by a refused run" test ! -e "$WORK/never"
# Only run takes a sai3-bench config.
expect_exit 2 datagen.out "$TB" datagen "$config" target="file://$WORK/never/"
contains datagen.out "trainbench run $config"
# A DLIO workload takes its storage options as keys, not --s3-option.
expect_exit 2 dlio.out "$TB" run resnet50_h100 --s3-option endpoint_url=http://127.0.0.1:1
contains dlio.out "storage.storage_options.endpoint_url"

# sai3-bench's unet3d 1-host config (lognormal sizes of 1-32 MB over a 28x28 tree, GETs only),
# scaled down: its objects in the tree's leaves at sizes within the override's bounds, and
# every operation a GET of one of them, read whole.
expect_exit 0 unet.out "$TB" run "$SRC/tests/data/sai3-bench/unet3d_1-host.yaml" \
  target="file://$WORK/unet/" duration=1s concurrency=4 output.folder="$WORK/out" \
  prepare.ensure_objects.0.count=32 prepare.ensure_objects.0.size_spec.mean=150000 \
  prepare.ensure_objects.0.size_spec.std_dev=60000 prepare.ensure_objects.0.size_spec.min=65536 \
  prepare.ensure_objects.0.size_spec.max=262144 prepare.directory_structure.width=2 \
  prepare.directory_structure.files_per_dir=8 --no-progress --op-log "$WORK/unet.tsv"
check "unet3d: 32 objects in 4 leaves, every op a whole-object GET" "$PY" - "$WORK/unet" \
  "$(json_last_line unet.out 'd["trainbench"]["results"]')/summary.json" "$WORK/unet.tsv" <<'PY'
import collections, csv, json, os, sys
root = sys.argv[1]
sizes = {os.path.relpath(os.path.join(d, f), root): os.path.getsize(os.path.join(d, f))
         for d, _, fs in os.walk(root) for f in fs if f.startswith("prepared-")}
assert len(sizes) == 32 and all(65536 <= v <= 262144 for v in sizes.values()), sizes
assert len(set(sizes.values())) > 8, sizes  # drawn, not one size
leaves = collections.Counter(os.path.dirname(k) for k in sizes)
assert len(leaves) == 4 and set(leaves.values()) == {8}, leaves
s = json.load(open(sys.argv[2]))
assert s["kind"] == "sai3" and s["errors"] == 0, s
(get,) = s["ops"]
assert get["op"] == "GET" and get["count"] > 0, get
gets = [r for r in csv.DictReader(open(sys.argv[3]), delimiter="\t") if r["op"] == "GET"]
assert len(gets) == get["count"], (len(gets), get)
for r in gets:
    rel = os.path.relpath(r["file"].replace("file://", ""), root) if r["file"].startswith(("/", "file://")) else r["file"]
    assert int(r["bytes"]) == sizes[rel], (r, rel)
PY

# page_cache_mode: each GET's file gets its posix_fadvise as it is opened, as sai3-bench's
# s3dlio gives it (auto: sequential from 64 MiB, random below), seen by strace; only those.
command -v strace >/dev/null || fail "no strace (scripts/setup.sh installs it)"
advised() {  # advised MODE TARGET [overrides...]: the advice strace saw, counted by kind
  local mode=$1 target=$2
  shift 2
  strace -f -qq -e trace=fadvise64 -o "$WORK/fadvise" "$TB" run "$config" "$@" \
    target="file://$target/" duration=0.5s concurrency=2 output.folder="$WORK/out" \
    page_cache_mode="$mode" --no-progress >"$WORK/fadvise.out" 2>&1 || { cat "$WORK/fadvise.out"; fail "page_cache_mode=$mode"; }
  grep -o 'POSIX_FADV_[A-Z]*' "$WORK/fadvise" | sort -u | tr '\n' ' '
}
for pair in sequential:SEQUENTIAL random:RANDOM dontneed:DONTNEED normal:NORMAL auto:RANDOM; do
  got=$(advised "${pair%%:*}" "$t" "${small[@]:1}")
  check "page_cache_mode ${pair%%:*} advises POSIX_FADV_${pair##*:} alone (got: $got)" \
    test "$got" = "POSIX_FADV_${pair##*:} "
done
got=$(advised auto "$WORK/big" prepare.ensure_objects.0.count=1 \
  prepare.ensure_objects.0.size_spec.mean=67108864 prepare.ensure_objects.0.size_spec.std_dev=0 \
  prepare.ensure_objects.0.size_spec.min=67108864 prepare.ensure_objects.0.size_spec.max=67108864 \
  prepare.directory_structure.width=1 prepare.directory_structure.files_per_dir=1)
check "page_cache_mode auto advises a 64 MiB object sequential (got: $got)" \
  test "$got" = "POSIX_FADV_SEQUENTIAL "
expect_exit 2 bad_mode.out "$TB" run "$config" "${small[@]}" page_cache_mode=sometimes
contains bad_mode.out "page_cache_mode"
done_ok
