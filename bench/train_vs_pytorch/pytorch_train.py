#!/usr/bin/env python3
"""The PyTorch side of bench/train_vs_pytorch: ResNet training the way the PyTorch scripts
users compare against do it, with the same model (torchvision), optimizer (SGD, momentum
0.9, weight decay 1e-4), precision, memory format and warm-up as `trainbench train`.
- synthetic data: one batch made once on the device (compute alone);
- --compile: the model through torch.compile (the fastest stock PyTorch);
- --data FOLDER: torchvision's ImageFolder + DataLoader with the reference recipe's
  transforms (RandomResizedCrop, RandomHorizontalFlip, ToTensor, Normalize), --workers
  processes, pinned memory.
On a GPU the loss is read every --log-interval steps, as trainbench does.
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
    p.add_argument("--log-interval", type=int, default=10)
    p.add_argument("--compile", action="store_true")
    p.add_argument("--data", default="synthetic")
    p.add_argument("--workers", type=int, default=8)
    a, _ = p.parse_known_args()

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
    forward = torch.compile(model) if a.compile else model
    autocast_dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(a.precision)
    scaler = torch.amp.GradScaler(device.type, enabled=a.precision == "fp16")

    if a.data == "synthetic":
        images = torch.randn(a.batch_size, 3, a.image_size, a.image_size, device=device)
        images = images.contiguous(memory_format=memory_format)
        labels = torch.randint(1000, (a.batch_size,), device=device)

        def batches():
            while True:
                yield images, labels
    else:
        t = torchvision.transforms
        transform = t.Compose([t.RandomResizedCrop(a.image_size), t.RandomHorizontalFlip(),
                               t.ToTensor(),
                               t.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
        dataset = torchvision.datasets.ImageFolder(a.data, transform)
        loader = torch.utils.data.DataLoader(dataset, batch_size=a.batch_size, shuffle=True,
                                             num_workers=a.workers, pin_memory=True,
                                             drop_last=True, persistent_workers=True,
                                             prefetch_factor=4)

        def batches():
            while True:
                for x, y in loader:
                    yield (x.to(device, non_blocking=True).contiguous(memory_format=memory_format),
                           y.to(device, non_blocking=True))

    source = batches()
    wait = [0.0]

    def step():
        t0 = time.perf_counter()
        x, y = next(source)
        wait[0] += time.perf_counter() - t0
        if autocast_dtype is None:
            loss = criterion(forward(x), y)
        else:
            with torch.autocast(device.type, dtype=autocast_dtype):
                loss = criterion(forward(x), y)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        return loss

    for _ in range(a.warmup_steps):
        step()
    if device.type == "cuda":
        torch.cuda.synchronize()
    wait[0] = 0.0
    start = time.perf_counter()
    loss = None
    for epoch in range(a.epochs):
        for s in range(a.steps_per_epoch):
            loss = step()
            if device.type != "cuda" or (s + 1) % a.log_interval == 0:
                loss = loss.item()
    if device.type == "cuda":
        torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    total = a.batch_size * a.steps_per_epoch * a.epochs
    print(json.dumps({
        "radix_metrics": {"images_per_second": total / elapsed, "total_images": total,
                          "elapsed_seconds": elapsed, "lr": a.lr, "batch_size": a.batch_size,
                          "epochs": a.epochs, "steps_per_epoch": a.steps_per_epoch},
        "trainbench": {"precision": a.precision, "channels_last": a.channels_last,
                       "device": device.type, "model": a.model,
                       "peer": "pytorch " + torch.__version__ + (" compile" if a.compile else ""),
                       "data": a.data, "data_wait_share": wait[0] / elapsed,
                       "last_loss": float(loss)}}))


if __name__ == "__main__":
    main()
