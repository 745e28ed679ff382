#!/usr/bin/env bash
# ResNet-50's structure matches torchvision's: 25,557,032 parameters, and the state dict
# --save writes (PyTorch's format) loads into torchvision.models.resnet50() with strict
# name and shape checking; trained values survive the round trip.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_unless_pypi torch torchvision
"$TRAINBENCH" train --device cpu --threads 2 --model resnet50 --image-size 32 --batch-size 2 \
  --steps-per-epoch 1 --warmup-steps 0 --channels-last --save "$WORK/r50.pt" >"$WORK/out"
grep -q "^Model: resnet50 (25557032 parameters)" "$WORK/out" || fail "parameter count"
[ -f "$WORK/r50.pt" ] && [ ! -e "$WORK/r50.pt.partial" ] || fail "save file"
"$PYPI_PY" - "$WORK/r50.pt" <<'PYEOF'
import sys, torch, torchvision
state = torch.load(sys.argv[1])
model = torchvision.models.resnet50()
reference = model.state_dict()
assert set(state) == set(reference), set(state) ^ set(reference)
for k, v in state.items():
    assert v.shape == reference[k].shape, (k, v.shape, reference[k].shape)
model.load_state_dict(state, strict=True)
assert sum(p.numel() for p in model.parameters()) == 25557032
# One step of training moved BatchNorm statistics away from their initial values.
assert state["bn1.num_batches_tracked"].item() == 1
assert not torch.equal(state["bn1.running_mean"], torch.zeros(64))
print("ok: torchvision resnet50 loads the state dict")
PYEOF
echo "train_save: ok"
