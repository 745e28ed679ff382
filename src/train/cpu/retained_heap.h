// Keeps the memory a CPU training step frees for the next step instead of handing it back
// to the kernel. glibc's malloc serves blocks above 32 MiB (a ResNet-50 activation at batch
// 32 is 100 MiB) with mmap and returns them with munmap when freed, so every step faults
// each page of its activations in again and the kernel zeroes it: a quarter of a batch-32
// step on the 2-core build machine went to clear_page and the fault path (perf, 2026-11-29).
// While a RetainedHeap lives, large blocks come from the heap and freed memory stays there
// (the same blocks are asked for again each step); destroying it restores glibc's defaults.
// The process's peak memory is the step's peak, as before, plus fragmentation.
// Not thread-safe: make and destroy it on the training thread, one at a time.
#pragma once

namespace trainbench::train {

class RetainedHeap {
 public:
  RetainedHeap();
  ~RetainedHeap();
  RetainedHeap(const RetainedHeap&) = delete;
  RetainedHeap& operator=(const RetainedHeap&) = delete;
};

}  // namespace trainbench::train
