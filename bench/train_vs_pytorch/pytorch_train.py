#!/usr/bin/python3
"""The PyTorch side of bench/train_vs_pytorch: ResNet training on a synthetic batch made once
on the device, the way the PyTorch scripts users compare against do it, with the same model
(torchvision), optimizer (SGD, momentum 0.9, weight decay 1e-4), precision, memory format,
warm-up and per-step timing (the loss is read every step) as `trainbench train`.
Prints the same final line: {"radix_metrics": {...}, "trainbench": {...}}.
"""
import argparse
import json
import time

import torch
import torchvision


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="resnet50")
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--steps-per-epoch", type=int, default=200)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--warmup-steps", type=int, default=5)
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--precision", default="fp32", choices=["fp32", "tf32", "bf16", "fp16"])
    p.add_argument("--channels-last", action="store_true")
    p.add_argument("--device", default="cuda")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--image-size", type=int, default=224)
    p.add_argument("--seed", type=int, default=123)
    a = p.parse_args()

    device = torch.device(a.device)
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = a.precision == "tf32"
        torch.backends.cudnn.allow_tf32 = a.precision != "fp32"
    torch.manual_seed(a.seed)
    model = getattr(torchvision.models, a.model)().to(device)
    memory_format = torch.channels_last if a.channels_last else torch.contiguous_format
    model = model.to(memory_format=memory_format)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9, weight_decay=1e-4)
    criterion = torch.nn.CrossEntropyLoss()
    images = torch.randn(a.batch_size, 3, a.image_size, a.image_size, device=device)
    images = images.contiguous(memory_format=memory_format)
    labels = torch.randint(1000, (a.batch_size,), device=device)
    autocast_dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(a.precision)
    scaler = torch.cuda.amp.GradScaler(enabled=a.precision == "fp16")

    def step():
        if autocast_dtype is None:
            loss = criterion(model(images), labels)
        else:
            with torch.autocast(device.type, dtype=autocast_dtype):
                loss = criterion(model(images), labels)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        return loss.item()

    for _ in range(a.warmup_steps):
        step()
    times = []
    start = time.perf_counter()
    for epoch in range(a.epochs):
        for s in range(a.steps_per_epoch):
            t0 = time.perf_counter()
            loss = step()
            times.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    total = a.batch_size * a.steps_per_epoch * a.epochs
    times.sort()
    print(json.dumps({
        "radix_metrics": {"images_per_second": total / elapsed, "total_images": total,
                          "elapsed_seconds": elapsed, "lr": a.lr, "batch_size": a.batch_size,
                          "epochs": a.epochs, "steps_per_epoch": a.steps_per_epoch},
        "trainbench": {"precision": a.precision, "channels_last": a.channels_last,
                       "device": device.type, "model": a.model, "peer": "pytorch " + torch.__version__,
                       "step_time_p50_ms": times[len(times) // 2] * 1e3, "last_loss": loss}}))


if __name__ == "__main__":
    main()
