#!/usr/bin/env bash
# `datagen` and `run` in the image over a bind-mounted host folder (-v HOST:/data): the
# dataset, its manifest and the run's results are written back to the host, where they are
# checked (the files' sizes against the manifest, the run's summary: complete, every sample's
# bytes read per epoch) and the host's own binary reads the container's dataset the same way.
source "$(dirname "$0")/../lib/common.sh"
container_use_image
cd "$WORK"
mkdir -p host
args=(resnet50_h100 dataset.num_files_train=4 dataset.num_samples_per_file=50
  dataset.data_folder=/data/r50 output.folder=/data/out)

container_run datagen.out datagen.err -v "$WORK/host:/data" "$CONTAINER_IMAGE" datagen "${args[@]}" --verify ||
  fail "podman run IMAGE datagen exited $?: $(cat datagen.out datagen.err)"
contains datagen.out "verify: 4 files OK"
[ -f host/r50/trainbench_manifest.json ] || fail "no manifest on the host: $(find host | head)"
"$PY" - host/r50 <<'PY' || fail "the dataset on the host against its manifest"
import json, os, sys
root = sys.argv[1]
m = json.load(open(os.path.join(root, "trainbench_manifest.json")))
files = m["files"]
assert len(files) == 4, files
for f in files:
    size = os.path.getsize(os.path.join(root, f["path"]))
    assert size == f["size_bytes"], (f, size)
assert sum(f["size_bytes"] for f in files) >= m["total_bytes"] > 0, m["total_bytes"]
print("ok: 4 files on the host, sizes as the manifest says;", m["total_bytes"], "sample bytes")
PY
checks=$((checks + 1))
total=$(json host/r50/trainbench_manifest.json 'd["total_bytes"]')

container_run run.out run.err -v "$WORK/host:/data" "$CONTAINER_IMAGE" run "${args[@]}" \
  train.computation_time=0 train.epochs=2 reader.batch_size=20 --accelerators 2 ||
  fail "podman run IMAGE run exited $?: $(cat run.out run.err)"
[ "$(json_last_line run.out 'd["trainbench_metrics"]["bytes_read"]')" = $((total * 2)) ] ||
  fail "the container's run read $(json_last_line run.out 'd["trainbench_metrics"]["bytes_read"]') bytes, not 2 x $total"
checks=$((checks + 1))
dir=$(ls -d host/out/resnet50_h100-*/ 2>/dev/null | head -n 1)
[ -n "$dir" ] || fail "no results folder on the host under host/out: $(ls -R host/out 2>&1 | head)"
[ "$(json "$dir/summary.json" 'd["complete"]')" = True ] || fail "the run's summary.json says incomplete"
[ "$(json "$dir/summary.json" 'd["kind"]')" = run ] || fail "summary.json's kind"
[ -s "$dir/config.yaml" ] || fail "no config.yaml in $dir"
checks=$((checks + 3))

# The host's binary reads what the container wrote, byte for byte the same amount.
"$TB" run resnet50_h100 dataset.num_files_train=4 dataset.num_samples_per_file=50 \
  "dataset.data_folder=$WORK/host/r50" "output.folder=$WORK/hostout" train.computation_time=0 \
  train.epochs=1 reader.batch_size=20 >hostrun.out 2>hostrun.err || fail "host run: $(cat hostrun.err)"
[ "$(json_last_line hostrun.out 'd["trainbench_metrics"]["bytes_read"]')" = "$total" ] ||
  fail "the host's run of the container's dataset read a different amount"
checks=$((checks + 1))
done_ok
