#!/usr/bin/python3
"""Writes an ImageNet-like folder for the real-JPEG row of bench/train_vs_pytorch: CLASSES
class folders of PER_CLASS photo-like 500x375 JPEGs at quality 90 (ImageNet's median size),
made in parallel with Pillow.

Usage: make_jpegs.py OUTDIR [CLASSES=20] [PER_CLASS=250]
"""
import multiprocessing
import os
import sys

import numpy as np
from PIL import Image


def write_class(args):
    out, c, per_class = args
    folder = os.path.join(out, f"n{c:08d}")
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(c)
    y, x = np.mgrid[0:375, 0:500].astype(np.float32)
    for i in range(per_class):
        fx, fy, phase = rng.uniform(10, 60), rng.uniform(10, 60), rng.uniform(0, 6.3)
        r = 128 + 100 * np.sin(x / fx + phase) * np.cos(y / fy)
        g = 255 * ((x + i * 7) % 500) / 500
        b = 255 * ((x // (20 + c) + y // 30) % 2)
        img = np.stack([r, g, b], axis=-1) + rng.normal(0, 12, (375, 500, 3))
        Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB").save(
            os.path.join(folder, f"{i:05d}.JPEG"), quality=90)


def main():
    out = sys.argv[1]
    classes = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    per_class = int(sys.argv[3]) if len(sys.argv) > 3 else 250
    with multiprocessing.Pool() as pool:
        pool.map(write_class, [(out, c, per_class) for c in range(classes)])
    print(f"make_jpegs: {classes * per_class} JPEGs in {out}")


if __name__ == "__main__":
    main()
