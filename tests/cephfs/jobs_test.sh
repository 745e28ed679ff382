#!/usr/bin/env bash
# Every job across two hosts on CephFS (issue 47): each host has its own ceph-fuse client and
# page cache, as on a cluster. A datagen over both hosts writes one dataset (each rank its
# files, one manifest); the other host verifies it at once (the first look after a publish is
# not seconds a file); a run over both hosts reads what one host's run of the same ranks reads;
# a find-max sweep and an LLM checkpoint written by both ranks and read back work across them;
# stage fetches into CephFS from one host and the other reads the same bytes; clean from one
# host removes what datagen wrote on both.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
cephfs_use_cluster
data=$CEPHFS_WORK/data
cephfs_workload 24 2

# datagen over both hosts; the same datagen on this host's local disk as the reference.
cephfs_mpirun 180 -np 2 "$TB" datagen "${w[@]}" --no-progress >dg.out 2>&1 || { cat dg.out; fail "datagen over two hosts"; }
contains dg.out "2 ranks (rank r writes files r, r+2, ...)"
expect_exit 0 dg1.out "$TB" datagen "${w[@]}" "dataset.data_folder=$WORK/local" --no-progress
check "one manifest; the same files and bytes as one host's datagen" "$PY" - "$data" "$WORK/local" <<'PY'
import json, os, sys
def files(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            if not n.startswith(".") and not n.startswith("trainbench_"):
                p = os.path.join(d, n)
                out[os.path.relpath(p, root)] = open(p, "rb").read()
    return out
a, b = files(sys.argv[1]), files(sys.argv[2])
assert sorted(a) == sorted(b) and len([k for k in a if k.startswith("train/")]) == 24, (sorted(a), sorted(b))
assert all(a[k] == b[k] for k in a), [k for k in a if a[k] != b[k]]
m = json.load(open(os.path.join(sys.argv[1], "trainbench_manifest.json")))
assert not [n for n in os.listdir(sys.argv[1]) if n.endswith(".tbtmp")]
print("files:", len(a), "bytes:", sum(len(v) for v in a.values()))
PY

# The other host's first look: --verify from hostb right after. Files published by rename took
# 2.5-5 s each here (the MDS holding the folder's lock); 24 files must not take a minute.
t0=$SECONDS
cephfs_on hostb 120 "$TB" datagen "${w[@]}" --verify --no-progress >verify.out 2>&1 || { cat verify.out; fail "verify on hostb"; }
contains verify.out "verify: 24 files OK"
check "hostb's first look at hosta's files is not seconds a file ($((SECONDS - t0)) s)" test $((SECONDS - t0)) -lt 48

# run over both hosts, each host's page cache dropped first; the same 2 ranks on this host read
# the same samples and bytes.
cephfs_mpirun 180 -np 2 "$TB" run "${w[@]}" "output.folder=$WORK/out2" --drop-caches --no-progress >run2.out 2>&1 ||
  { cat run2.out; fail "run over two hosts"; }
contains run2.out "--drop-caches: page caches dropped on 2 host(s) before the run"
mpi_launch 180 -np 2 "$TB" run "${w[@]}" "output.folder=$WORK/out1" --no-progress >run1.out 2>&1 || { cat run1.out; fail "run on one host"; }
check "two hosts read what one host reads" "$PY" - "$WORK/out2" "$WORK/out1" <<'PY'
import glob, json, sys
def summary(folder):
    return json.load(open(glob.glob(folder + "/*/summary.json")[0]))
two, one = summary(sys.argv[1]), summary(sys.argv[2])
assert two["complete"] and one["complete"], (two.get("stop_reason"), one.get("stop_reason"))
assert two["cache"]["dropped_before_run"] is True, two["cache"]
key = lambda s: [(p["kind"], p["samples"], p["bytes_read"]) for p in s["phases"]]
assert key(two) == key(one), (key(two), key(one))
hosts = [r["host"] for r in two["filesystems"]["data"]]
assert hosts == ["hosta", "hostb"], two["filesystems"]
assert all(r["fs_type"] == "fuse.ceph-fuse" and r["network"] and r["sees_probe"] for r in two["filesystems"]["data"]), two["filesystems"]
print("epochs (samples, bytes):", key(two))
PY

# find-max over both hosts: one confirmed answer.
cephfs_mpirun 240 -np 2 "$TB" sweep "${w[@]}" train.epochs=1 "output.folder=$WORK/sweep" --find-max-accelerators \
  --min 2 --max 16 --no-progress >sweep.out 2>sweep.err || { cat sweep.out sweep.err; fail "find-max over two hosts"; }
check "one answer over two hosts" "$PY" - "$(json_last_line sweep.out 'd["trainbench"]["results"]')/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
# Where the search ends depends on the box's load (as in mpi/sweep_test.sh): one confirmed
# answer, each probe run over both hosts.
ends = s["limited_by_dataset"] or s["limited_by_range"] or \
    s["first_failure_accelerators"] == max(s["answer_accelerators"] + 1, s["min_accelerators"])
assert s["ranks"] == 2 and s["probes"] and ends, {k: s[k] for k in s if k not in ("config", "probes")}
for p in s["probes"]:
    run = json.load(open(p["results"] + "/summary.json"))
    assert run["host_names"] == ["hosta", "hostb"] and run["num_accelerators"] == p["accelerators"], p
print("answer:", s["answer_accelerators"], "accelerators;", s.get("sentence", ""))
PY

# An LLM checkpoint: each rank writes its shard on its host and reads it back.
ck=$CEPHFS_WORK/ckpt
small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" "checkpoint.checkpoint_folder=$ck")
cephfs_mpirun 180 -np 2 "$TB" run llama3_8b "${small[@]}" checkpoint.num_checkpoints_write=1 \
  checkpoint.num_checkpoints_read=1 --no-progress >ck.out 2>&1 || { cat ck.out; fail "checkpoint over two hosts"; }
check "both ranks' shards written on CephFS and read back" "$PY" - "$(newest_summary)" "$ck" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
ops = [(c["operation"], c["ranks"]) for c in s["checkpoints"]]
assert ops == [("write", 2), ("read", 2)], ops
on_disk = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(sys.argv[2]) for f in fs
              if f.endswith(".pt"))
assert s["checkpoints"][0]["bytes"] == on_disk == s["checkpoints"][1]["bytes"], (s["checkpoints"], on_disk)
print("checkpoint bytes:", on_disk)
PY

# stage from hostb into CephFS (an HTTP origin on the bridge); hosta reads the same bytes.
root_ip=$(sed -n 's/^NETNS_IP_ROOT=//p' "$CEPHFS_HOSTS/netns.env")
mkdir -p origin && head -c 3000000 /dev/urandom >origin/blob.bin
port=$(free_port)
(cd origin && exec "$PY" -m http.server --bind "$root_ip" "$port") >http.log 2>&1 &
wait_for_port() { for _ in $(seq 50); do curl -s -o /dev/null "http://$root_ip:$port/" && return 0; sleep 0.1; done; return 1; }
wait_for_port || fail "the HTTP origin did not start"
sha=$(sha256sum origin/blob.bin | cut -d' ' -f1)
cephfs_on hostb 120 "$TB" stage "http://$root_ip:$port/blob.bin" "$CEPHFS_WORK/staged" --sha256 "$sha" \
  --output "$WORK/stage-out" --no-progress >stage.out 2>&1 || { cat stage.out; fail "stage on hostb"; }
[ "$(cephfs_on hosta 60 sha256sum "$CEPHFS_WORK/staged/blob.bin" | cut -d' ' -f1)" = "$sha" ] ||
  fail "hosta does not read the bytes hostb staged"
checks=$((checks + 1))

# clean from hosta removes the dataset both hosts wrote.
cephfs_on hosta 120 "$TB" clean "${w[@]}" --yes >clean.out 2>&1 || { cat clean.out; fail "clean on hosta"; }
left=$(cephfs_on hostb 60 find "$data" -type f | wc -l)
check "no file of the dataset is left for hostb ($left)" test "$left" = 0
echo "PASS: cephfs jobs ($checks checks)"
