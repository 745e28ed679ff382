#!/usr/bin/env python3
"""Groups a perf recording's samples (perf report --sort dso,sym, sample counts) into the
parts of a training step: oneDNN's convolutions, the kernel's page faults, the OpenMP
runtime, batch norm, ReLU, adds, fused kernels. Prints each part's share of the samples.
Usage: perf_parts.py RECORDING... (from bench/train_vs_pytorch/profile.sh)
"""
import re
import subprocess
import sys

LINE = re.compile(r"\s*[0-9.]+%\s+([0-9]+)\s+(\S+(?: tid \d+)?)\s+\[[.k]\]\s+(.*)")


def part(dso, symbol):
    if dso.startswith("[JIT]") or "dnnl" in symbol or "ideep" in symbol:
        return "convolutions (oneDNN JIT kernels, reorders)"
    if dso.startswith("[kernel"):
        return "kernel: page faults, zeroing, munmap (allocation)"
    if "libgomp" in dso:
        return "OpenMP runtime (threads waiting at barriers)"
    if "trainbench::train::cpu" in symbol:
        return "BN+ReLU(+add), fused (trainbench)"
    # inductor's generated C++ kernels load from a library named by their hash
    if "cpp_fused" in symbol or dso.endswith(".main.so"):
        return "BN+ReLU(+add), fused (inductor)"
    if "batch_norm" in symbol:
        return "batch norm (ATen)"
    if "threshold" in symbol or "clamp_min" in symbol:
        return "ReLU forward/backward (ATen)"
    if "sgd" in symbol.lower():
        return "SGD"
    if "add_kernel" in symbol or "mul_kernel" in symbol:
        return "adds and muls (residual, SGD foreach, grad sums)"
    if "copy" in symbol:
        return "copies"
    if "max_pool" in symbol:
        return "max pool"
    return "other"


def main():
    for path in sys.argv[1:]:
        report = subprocess.run(["perf", "report", "-i", path, "--no-children", "-n", "--sort",
                                 "dso,sym", "--stdio", "-g", "none"],
                                capture_output=True, text=True, check=True).stdout
        samples = {}
        for line in report.splitlines():
            m = LINE.match(line)
            if m:
                key = part(m.group(2), m.group(3))
                samples[key] = samples.get(key, 0) + int(m.group(1))
        total = sum(samples.values())
        print(f"== {path}: {total} samples")
        for key, n in sorted(samples.items(), key=lambda kv: -kv[1]):
            print(f"{100 * n / total:6.1f}%  {key}")


if __name__ == "__main__":
    main()
