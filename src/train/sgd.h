// SGD with momentum and weight decay, PyTorch's update rule (dampening 0, no Nesterov):
//   g += weight_decay * p;  buf = momentum * buf + g (buf = g on the first step);  p -= lr * buf
// Where the PyTorch has it (CUDA from 2.3, the CPU from 2.4), one fused multi-tensor kernel,
// torch's SGD(fused=True): one pass over each parameter, its gradient and momentum per step,
// where the separate weight-decay, momentum and update _foreach ops make four. On CUDA it also
// skips the update on the device when fp16 loss scaling found an inf, so a step needs no
// host read and can live in a CUDA graph. Elsewhere ATen's _foreach kernels, as PyTorch 2's
// default "foreach" SGD: a few launches per step instead of several per parameter
// (ResNet-50 has 161).
// Not thread-safe: used by the one training loop.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace trainbench::train {

struct SgdOptions {
  double lr = 0.1;
  double momentum = 0.9;
  double weight_decay = 1e-4;
};

class Sgd {
 public:
  Sgd(std::vector<at::Tensor> parameters, const SgdOptions& options);

  // Drops gradients (set to none, so backward writes instead of accumulating).
  void ZeroGrad();
  // One update from the current gradients; parameters without a gradient are left alone.
  // With `found_inf` (a float [1] tensor from GradScaler) the update is skipped when it is
  // non-zero: on the device when fused, else after reading it.
  void Step(const at::Tensor& found_inf = {});

  const std::vector<at::Tensor>& parameters() const { return parameters_; }
  bool fused() const;  // whether Step runs the fused kernel on these parameters

 private:
  std::vector<at::Tensor> parameters_;
  std::vector<at::Tensor> momentum_;  // empty until the first step
  SgdOptions options_;
};

}  // namespace trainbench::train
