#!/usr/bin/env python3
"""One profiled training step of torchvision's ResNet-50 in PyTorch, eager or torch.compile,
the way pytorch_train.py runs it (SGD momentum 0.9, weight decay 1e-4, synthetic batch), for
bench/train_vs_pytorch/profile.sh: one warm-up step (compile compiles in it), then one step
under torch.profiler, whose operator table (self CPU time) is printed. With PERF_CTL set (a
perf --control fifo), perf records that step alone.
Usage: profile_step.py eager|compile BATCH [THREADS]
"""
import os
import sys
import time

import torch
import torchvision
from torch.profiler import ProfilerActivity, profile


def main():
    mode, batch = sys.argv[1], int(sys.argv[2])
    torch.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 2)
    torch.manual_seed(123)
    if mode == "compile":
        import torch._inductor.config as inductor_config
        inductor_config.cpp.enable_kernel_profile = True  # each generated kernel by name
    model = torchvision.models.resnet50().train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    forward = torch.compile(model) if mode == "compile" else model
    criterion = torch.nn.CrossEntropyLoss()
    x = torch.randn(batch, 3, 224, 224)
    y = torch.randint(1000, (batch,))

    def step():
        loss = criterion(forward(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    start = time.perf_counter()
    step()
    print("warmup seconds", time.perf_counter() - start, flush=True)
    ctl = os.environ.get("PERF_CTL")

    def perf(command):
        if ctl:
            with open(ctl, "w") as f:
                f.write(command + "\n")

    perf("enable")
    with profile(activities=[ProfilerActivity.CPU]) as p:
        start = time.perf_counter()
        step()
        elapsed = time.perf_counter() - start
    perf("disable")
    print("step seconds", elapsed)
    print(p.key_averages().table(sort_by="self_cpu_time_total", row_limit=45,
                                 max_name_column_width=70))


if __name__ == "__main__":
    main()
