#!/usr/bin/python3
"""The Python side of bench/decode_vs_pil on one core: the same training transform over the
same JPEGs held in memory, two ways people write it:
  pil_numpy:    PIL decode, RandomResizedCrop box (torchvision's rule), PIL bilinear resize,
                flip and normalise in numpy (float32 CHW)
  torchvision:  torchvision.transforms RandomResizedCrop + RandomHorizontalFlip + ToTensor +
                Normalize on the PIL image (what the ImageNet reference script runs)
Usage: pil_decode.py DIR [SIZE=224] [SECONDS=5] [pil_numpy|torchvision]
"""
import io
import json
import math
import os
import random
import sys
import time

import numpy as np
from PIL import Image

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32).reshape(3, 1, 1)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32).reshape(3, 1, 1)


def crop_box(width, height, rng):
    area = width * height
    log_ratio = (math.log(3 / 4), math.log(4 / 3))
    for _ in range(10):
        target = area * rng.uniform(0.08, 1.0)
        ratio = math.exp(rng.uniform(*log_ratio))
        w = int(round(math.sqrt(target * ratio)))
        h = int(round(math.sqrt(target / ratio)))
        if 0 < w <= width and 0 < h <= height:
            y = rng.randint(0, height - h)
            x = rng.randint(0, width - w)
            return x, y, w, h
    w, h = width, height
    return 0, 0, w, h


def pil_numpy(data, size, rng):
    image = Image.open(io.BytesIO(data)).convert("RGB")
    x, y, w, h = crop_box(image.width, image.height, rng)
    image = image.crop((x, y, x + w, y + h)).resize((size, size), Image.BILINEAR)
    array = np.asarray(image, dtype=np.float32).transpose(2, 0, 1) / 255.0
    if rng.random() < 0.5:
        array = array[:, :, ::-1]
    return np.ascontiguousarray((array - MEAN) / STD)


def main():
    folder = sys.argv[1]
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 224
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
    mode = sys.argv[4] if len(sys.argv) > 4 else "pil_numpy"
    names = sorted(n for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg")))
    files = [open(os.path.join(folder, n), "rb").read() for n in names]
    rng = random.Random(1)
    if mode == "torchvision":
        import torch
        import torchvision.transforms as T
        torch.set_num_threads(1)
        transform = T.Compose([T.RandomResizedCrop(size), T.RandomHorizontalFlip(), T.ToTensor(),
                               T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
        apply = lambda data: transform(Image.open(io.BytesIO(data)).convert("RGB"))
    else:
        apply = lambda data: pil_numpy(data, size, rng)
    images, start = 0, time.perf_counter()
    now = start
    while now - start < seconds:
        for data in files:
            apply(data)
            images += 1
        now = time.perf_counter()
    elapsed = now - start
    print(json.dumps({"images_per_second": images / elapsed, "images": images,
                      "files": len(files), "elapsed_seconds": elapsed, "mode": mode}))


if __name__ == "__main__":
    main()
