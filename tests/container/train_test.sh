#!/usr/bin/env bash
# `train` in the image, as the seed calls it (the image's name, then train's own flags): the
# command line below is verbatim what the issue asks to work; its last stdout line is the
# radix_metrics JSON with the seed's seven fields and images = batch x steps x epochs. A tiny
# second run writes its results folder through a bind mount (--output) to the host, where
# its summary is read; the image's train is the plugin beside the binary, not a stand-in.
source "$(dirname "$0")/../lib/common.sh"
container_use_image
skip_unless '[ "$CONTAINER_LIBTORCH" = yes ]' "the suite's image has no LibTorch (the build has no libtrainbench_train.so)"
cd "$WORK"

container_run seed.out seed.err "$CONTAINER_IMAGE" train --allow-cpu --batch-size 2 --steps-per-epoch 2 ||
  fail "podman run IMAGE train exited $?: $(cat seed.out seed.err)"
cat seed.out
"$PY" - seed.out <<'PY' || fail "the seed-style train's radix_metrics line"
import json, sys
line = json.loads(open(sys.argv[1]).read().splitlines()[-1])
m = line["radix_metrics"]
assert list(m) == ["images_per_second", "total_images", "elapsed_seconds", "lr", "batch_size",
                   "epochs", "steps_per_epoch"], list(m)
assert (m["batch_size"], m["steps_per_epoch"], m["epochs"], m["lr"]) == (2, 2, 1, 0.1), m
assert m["total_images"] == 2 * 2 * 1, m
assert m["images_per_second"] > 0 and m["elapsed_seconds"] > 0, m
t = line["trainbench"]
assert (t["device"], t["model"], t["data"], t["complete"]) == ("cpu", "resnet50", "synthetic", True), t
print("ok: seed-style train in the container:", m)
PY
checks=$((checks + 1))
grep -q "^Using device: cpu (" seed.out || fail "no 'Using device' line from the container's train"

# Results through a bind mount: --output /results is $WORK/results on the host.
mkdir -p results
container_run tiny.out tiny.err -v "$WORK/results:/results" "$CONTAINER_IMAGE" train \
  "${TRAIN_TINY[@]}" --epochs 2 --steps-per-epoch 3 --output /results ||
  fail "train --output /results exited $?: $(cat tiny.out tiny.err)"
dir=$(ls -d results/train-*/ 2>/dev/null | head -n 1)
[ -n "$dir" ] || fail "no results/train-*/ on the host after train --output /results: $(ls -R results)"
[ "$(json_last_line tiny.out 'd["trainbench"]["results"]')" = "/results/$(basename "$dir")" ] ||
  fail "the JSON line names $(json_last_line tiny.out 'd["trainbench"]["results"]'), the host has $dir"
ls "$dir" >listing
"$PY" - "$dir" tiny.out <<'PY' || fail "the results folder written through the bind mount: $(cat listing)"
import json, os, sys
folder, out = sys.argv[1], sys.argv[2]
line = json.loads(open(out).read().splitlines()[-1])
assert line["radix_metrics"]["total_images"] == 4 * 3 * 2, line
summary = json.load(open(os.path.join(folder, "summary.json")))
assert summary["kind"] == "train" and summary["complete"], summary
print("ok: results on the host:", sorted(os.listdir(folder)))
PY
checks=$((checks + 1))
done_ok
