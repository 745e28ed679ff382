// SGD with momentum and weight decay, PyTorch's update rule (dampening 0, no Nesterov):
//   g += weight_decay * p;  buf = momentum * buf + g (buf = g on the first step);  p -= lr * buf
// applied to all parameters at once with ATen's _foreach kernels, as PyTorch 2's default
// "foreach" SGD does on CUDA: a few multi-tensor launches per step instead of several per
// parameter (ResNet-50 has 161), which matters when a GPU step takes only tens of ms.
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
  void Step();

  const std::vector<at::Tensor>& parameters() const { return parameters_; }

 private:
  std::vector<at::Tensor> parameters_;
  std::vector<at::Tensor> momentum_;  // empty until the first step
  SgdOptions options_;
};

}  // namespace trainbench::train
