// A TrainStep captured once in a CUDA graph and replayed every step: one launch instead of
// the ~2,000 kernels of a ResNet-50 step, so the host never limits a fast GPU. The graph
// reads its batch from static device buffers (each step's batch is copied into them on the
// device first) and writes the loss into a static tensor. Captured after warm-up, when
// cuDNN has chosen its algorithms and the optimizer has its momentum buffers.
// Compiled in when the LibTorch found has CUDA; elsewhere CudaGraphsAvailable() is false.
// Not thread-safe: used by the training thread.
#pragma once

#include <ATen/core/Tensor.h>

#include <memory>

#include "train/train_step.h"

namespace trainbench::train {

class GraphedStep {
 public:
  virtual ~GraphedStep() = default;
  // Copies the batch into the graph's inputs (unless it is them) and replays the graph on
  // the current stream; returns the graph's loss tensor (overwritten by the next replay).
  virtual at::Tensor Run(const at::Tensor& images, const at::Tensor& labels) = 0;
};

bool CudaGraphsAvailable();

// Captures `step` on device copies shaped like `images` and `labels`. When `static_inputs`
// the graph reads those very tensors (a synthetic batch that never changes).
std::unique_ptr<GraphedStep> CaptureStep(TrainStep& step, const at::Tensor& images,
                                         const at::Tensor& labels, bool static_inputs);

}  // namespace trainbench::train
