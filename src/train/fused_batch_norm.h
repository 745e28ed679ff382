// relu(batch_norm(x) [+ residual]) for a training-mode BatchNorm2d, the pattern every
// ResNet block repeats. On channels-last tensors it runs trainbench's fused kernels, the same
// passes on both devices: cpu/bn_relu_kernels.cc (float, bfloat16) and, when built with
// CUDA, cuda/bn_relu_kernels.cu (also half): one pass for statistics, one for normalise, add
// and ReLU, and two passes back, where the separate ATen ops read and write the activation
// several more times. Elsewhere (other layouts, types or devices), and in eval mode, it is
// the ATen ops themselves.
// Not thread-safe: used by the training thread (also inside CUDA graph capture).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <torch/nn/modules/batchnorm.h>

namespace trainbench::train {

// Whether this build has fused kernels for `device` (the CPU's always; CUDA's when nvcc
// built them).
bool FusedBatchNormAvailable(const c10::Device& device);

// `residual` may be undefined. With `fused` false, or inputs the kernels do not take, the
// ATen path runs.
at::Tensor BatchNormRelu(torch::nn::BatchNorm2d& bn, const at::Tensor& x,
                         const at::Tensor& residual, bool fused);

}  // namespace trainbench::train
