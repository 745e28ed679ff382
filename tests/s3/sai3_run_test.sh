#!/usr/bin/env bash
# trainbench run with sai3-bench's resnet50 1-host config against the suite's S3 gateway,
# scaled down by overrides: curl (an independent client) lists exactly the prepared objects in
# the directory_structure's folders at the sizes the manifest records; the GETs read them (bytes
# and time to first byte in summary.json); cleanup: true leaves no prepared object; the secret
# is printed nowhere.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
s3_new_bucket sai3
at_exit "s3_remove_bucket $bucket"
cd "$WORK"
config=$SRC/tests/data/sai3-bench/resnet50_1-host.yaml
small=(target="s3://$bucket/r50/" duration=2s concurrency=4 output.folder="$WORK/out"
  prepare.ensure_objects.0.count=24 prepare.ensure_objects.0.size_spec.mean=20000
  prepare.ensure_objects.0.size_spec.std_dev=5000 prepare.ensure_objects.0.size_spec.min=8192
  prepare.ensure_objects.0.size_spec.max=65536 prepare.directory_structure.width=2
  prepare.directory_structure.files_per_dir=6 --s3-option "endpoint_url=$S3_TEST_ENDPOINT" --no-progress)

expect_exit 0 run.out "$TB" run "$config" "${small[@]}"
folder=$(json_last_line run.out 'd["trainbench"]["results"]')
s3_curl GET "/$bucket?list-type=2&prefix=r50%2F" >listing.xml
s3_curl GET "/$bucket/r50/trainbench_manifest.json" >manifest.json
check "curl lists the 24 prepared objects, in 4 leaves, at the manifest's sizes" "$PY" - listing.xml \
  manifest.json "$folder/summary.json" <<'PY'
import collections, json, re, sys
t = open(sys.argv[1]).read()
got = dict(zip(re.findall(r"<Key>([^<]*)</Key>", t), map(int, re.findall(r"<Size>(\d+)</Size>", t))))
objs = {k: v for k, v in got.items() if "/prepared-" in k}
assert len(objs) == 24, got
assert all(8192 <= v <= 65536 for v in objs.values()), objs
leaves = collections.Counter(k.rsplit("/", 1)[0] for k in objs)
assert len(leaves) == 4 and set(leaves.values()) == {6}, leaves
assert "r50/scan.d1_w1.dir/scan.d2_w1.dir/prepared-00000000.dat" in objs, objs
m = json.load(open(sys.argv[2]))
assert {"r50/" + f["path"]: f["size_bytes"] for f in m["files"]} == objs
s = json.load(open(sys.argv[3]))
assert s["kind"] == "sai3" and s["errors"] == 0 and s["target"].startswith("s3://"), s
(get,) = s["ops"]
assert get["op"] == "GET" and get["count"] > 0 and get["bytes"] > 0, get
assert get["first_byte_latency_ms"]["p50"] > 0, get
assert get["first_byte_latency_ms"]["p50"] <= get["latency_ms"]["p99"], get
PY

expect_exit 0 clean.out "$TB" run "$config" "${small[@]}" duration=0.5s prepare.cleanup=true \
  prepare.force_overwrite=false
s3_curl GET "/$bucket?list-type=2&prefix=r50%2F" >after.xml
check "cleanup: no prepared object and no manifest left" "$PY" - after.xml <<'PY'
import re, sys
keys = re.findall(r"<Key>([^<]*)</Key>", open(sys.argv[1]).read())
assert not [k for k in keys if "prepared-" in k or k.endswith("trainbench_manifest.json")], keys
PY
check "the resumed prepare wrote nothing" test \
  "$(json "$(json_last_line clean.out 'd["trainbench"]["results"]')/summary.json" 'd["prepare"]["written"]')" = 0
# The 4-hosts config over 4 ranks (its 4 agents) against the gateway: curl lists the 40
# prepared objects, and they are exactly the union of the ranks' PUTs, rank r's the objects
# r, r+4, ... (each client prepares 1/N); rank 0's summary merges the 4 ranks.
skip_unless "command -v mpirun" "$MPI_NEEDS"
mpi_launch 120 -np 4 -x AWS_ACCESS_KEY_ID -x AWS_SECRET_ACCESS_KEY "$TB" run \
  "$SRC/tests/data/sai3-bench/resnet50_4-hosts.yaml" target="s3://$bucket/r50x4/" duration=1s \
  concurrency=2 output.folder="$WORK/out4" prepare.ensure_objects.0.count=40 \
  prepare.ensure_objects.0.size_spec.min=1000 prepare.ensure_objects.0.size_spec.max=20000 \
  prepare.ensure_objects.0.size_spec.mean=5000 prepare.ensure_objects.0.size_spec.std_dev=2000 \
  prepare.directory_structure.width=2 prepare.directory_structure.files_per_dir=10 \
  --s3-option "endpoint_url=$S3_TEST_ENDPOINT" --no-progress --op-log "$WORK/ops4.tsv" \
  >run4.out 2>run4.err || { cat run4.out run4.err; fail "the 4-hosts config over 4 ranks"; }
s3_curl GET "/$bucket?list-type=2&prefix=r50x4%2F" >listing4.xml
check "4 ranks on the gateway: each prepared its 1/4, curl lists them all" "$PY" - listing4.xml \
  "$(json_last_line run4.out 'd["trainbench"]["results"]')/summary.json" "$SRC/tests/lib" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[3])
from sai3_ranks import merged_summary, prepared_puts
keys = [k for k in re.findall(r"<Key>([^<]*)</Key>", open(sys.argv[1]).read()) if "/prepared-" in k]
assert len(keys) == 40, keys
every, _ = prepared_puts("ops4", 4, 40)
assert sorted("r50x4/" + p.split("r50x4/")[-1].lstrip("/") for p in every) == sorted(keys), (every[:3], keys[:3])
merged_summary(sys.argv[2], 4, 40)
PY
s3_no_secret "$WORK"
done_ok
