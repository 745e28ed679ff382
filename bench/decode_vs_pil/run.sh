#!/usr/bin/env bash
# JPEG decode + RandomResizedCrop + flip + normalise, images/s on one core, trainbench
# against Pillow + numpy (and torchvision's transforms) on the same files, held in memory.
# The files are ImageNet-like: photo-like content at ImageNet's typical sizes (about
# 500x375, some larger), quality 90, 4:2:0 chroma. Each side runs pinned to one CPU
# (taskset) and the runs alternate; each side's best of REPEAT runs is kept.
#
# Usage: bench/decode_vs_pil/run.sh   Environment: FILES (64), SECONDS (4), REPEAT (2), SIZE (224)
set -euo pipefail
cd "$(dirname "$0")/../.."
files=${FILES:-64} seconds=${SECONDS_PER_RUN:-4} repeat=${REPEAT:-2} size=${SIZE:-224}
python=${PYTHON:-/usr/bin/python3}
bin=${DECODE_BENCH:-build/bench/trainbench_decode_bench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$python" - "$dir" "$files" <<'PYEOF'
import sys
import numpy as np
from PIL import Image
out, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
sizes = [(500, 375), (375, 500), (500, 333), (640, 480), (800, 600), (1024, 768)]
for i in range(n):
    w, h = sizes[i % len(sizes)]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    fx, fy = rng.uniform(5, 60, size=2)
    base = np.stack([128 + 90 * np.sin(x / fx + i) * np.cos(y / fy),
                     128 + 90 * np.cos((x + y) / (fx + fy)),
                     255 * ((x // rng.integers(8, 64) + y // rng.integers(8, 64)) % 2)], -1)
    img = base + rng.normal(0, 10, (h, w, 3))
    Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(f"{out}/img_{i}.jpg", quality=90)
PYEOF
rate() { "$python" -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["images_per_second"])'; }
best() { printf '%s\n' "$@" | sort -g | tail -n 1; }
pin="taskset -c 0"; command -v taskset >/dev/null || pin=""
ours=() ours_nodct=() pil=() tv=()
for r in $(seq "$repeat"); do
  ours+=("$($pin "$bin" "$dir" "$size" "$seconds" dct | rate)")
  ours_nodct+=("$($pin "$bin" "$dir" "$size" "$seconds" nodct | rate)")
  pil+=("$($pin "$python" bench/decode_vs_pil/pil_decode.py "$dir" "$size" "$seconds" pil_numpy | rate)")
  tv+=("$($pin "$python" bench/decode_vs_pil/pil_decode.py "$dir" "$size" "$seconds" torchvision | rate)")
done
a=$(best "${ours[@]}") b=$(best "${ours_nodct[@]}") c=$(best "${pil[@]}") d=$(best "${tv[@]}")
echo "decode_vs_pil: $files JPEGs (500x375 to 1024x768, q90), output ${size}x${size} float, one core"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n| %-44s | %12s | %16s |\n' "pipeline" "images/s/core" "trainbench ratio"
printf '|%s|%s|%s|\n' "----------------------------------------------" "--------------" "------------------"
ratio() { "$python" -c "print(f'{$a / $1:.2f}x')"; }
printf '| %-44s | %12.1f | %16s |\n' "trainbench (region decode + DCT scaling)" "$a" "1.00x"
printf '| %-44s | %12.1f | %16s |\n' "trainbench (region decode, no DCT scaling)" "$b" "$(ratio "$b")"
printf '| %-44s | %12.1f | %16s |\n' "Pillow + numpy" "$c" "$(ratio "$c")"
printf '| %-44s | %12.1f | %16s |\n' "torchvision transforms (Pillow)" "$d" "$(ratio "$d")"
echo "  runs: dct ${ours[*]} / nodct ${ours_nodct[*]} / pil ${pil[*]} / torchvision ${tv[*]}" >&2
