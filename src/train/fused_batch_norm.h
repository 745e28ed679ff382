// relu(batch_norm(x) [+ residual]) for a training-mode BatchNorm2d, the pattern every
// ResNet block repeats. On channels-last CUDA tensors (when built with CUDA) it runs the
// fused kernels of cuda/bn_relu_kernels.cu: one pass for statistics, one for normalise, add
// and ReLU, and two passes back, where the separate ATen ops read and write the activation
// several more times. Elsewhere, and in eval mode, it is the ATen ops themselves.
// Not thread-safe: used by the training thread (also inside CUDA graph capture).
#pragma once

#include <ATen/core/Tensor.h>
#include <torch/nn/modules/batchnorm.h>

namespace trainbench::train {

// Whether this build has the fused CUDA kernels.
bool FusedBatchNormAvailable();

// `residual` may be undefined. With `fused` false, or inputs the kernels do not take, the
// ATen path runs.
at::Tensor BatchNormRelu(torch::nn::BatchNorm2d& bn, const at::Tensor& x,
                         const at::Tensor& residual, bool fused);

}  // namespace trainbench::train
