// ResNet v1.5 as torchvision defines it (resnet.py): 7x7 stem, BasicBlock (18, 34) or
// Bottleneck (50, 101, 152) stages with the downsampling stride on the 3x3 convolution,
// Kaiming-normal (fan_out) convolutions, BatchNorm at weight 1 / bias 0, and optionally the
// last BatchNorm of each residual branch at zero. Submodules carry torchvision's names
// (conv1, layer1.0.downsample.1, fc, ...) so a state dict loads into torchvision's model.
// Not thread-safe: one model is used by one training loop.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <string>
#include <vector>

namespace trainbench::train {

class ResNetImpl : public torch::nn::Module {
 public:
  // `bottleneck` picks the block type; `blocks` the count per stage (3-4-6-3 for 50).
  // `fused_bn`: BatchNorm + ReLU (+ residual add) through fused_batch_norm.h's kernels.
  ResNetImpl(bool bottleneck, const std::vector<int64_t>& blocks, int64_t num_classes,
             bool zero_init_residual, bool fused_bn = false);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Sequential MakeStage(bool bottleneck, int64_t planes, int64_t blocks, int64_t stride);

  bool fused_bn_ = false;
  int64_t in_planes_ = 64;
  torch::nn::Conv2d conv1_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr};
  torch::nn::Sequential layer1_{nullptr}, layer2_{nullptr}, layer3_{nullptr}, layer4_{nullptr};
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(ResNet);

// resnet18, resnet34, resnet50, resnet101 or resnet152; UsageError for anything else.
ResNet MakeResNet(const std::string& name, int64_t num_classes, bool zero_init_residual,
                  bool fused_bn = false);

// The names MakeResNet accepts, for help text and errors.
std::vector<std::string> ResNetNames();

}  // namespace trainbench::train
