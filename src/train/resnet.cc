#include "train/resnet.h"

#include <c10/core/GradMode.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/nn/init.h>

#include <map>

#include "common/error.h"
#include "train/cpu/widened_conv.h"
#include "train/fused_batch_norm.h"

namespace trainbench::train {

namespace {

namespace nn = torch::nn;

// The residual branch's input: x, or the downsample's conv and batch norm of it.
torch::Tensor Downsample(nn::Sequential& downsample, const torch::Tensor& x) {
  if (!downsample) return x;
  return downsample[1]->as<nn::BatchNorm2d>()->forward(
      cpu::Convolve(*downsample[0]->as<nn::Conv2d>(), x));
}

nn::Conv2d Conv(int64_t in, int64_t out, int64_t kernel, int64_t stride) {
  return nn::Conv2d(
      nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2).bias(false));
}

// Two 3x3 convolutions (resnet18/34). Expansion 1.
class BasicBlockImpl : public nn::Module {
 public:
  BasicBlockImpl(int64_t in, int64_t planes, int64_t stride, nn::Sequential downsample,
                 bool fused_bn)
      : fused_bn_(fused_bn),
        conv1_(register_module("conv1", Conv(in, planes, 3, stride))),
        bn1_(register_module("bn1", nn::BatchNorm2d(planes))),
        conv2_(register_module("conv2", Conv(planes, planes, 3, 1))),
        bn2_(register_module("bn2", nn::BatchNorm2d(planes))),
        downsample_(downsample) {
    if (downsample_) register_module("downsample", downsample_);
  }
  torch::Tensor forward(torch::Tensor x) {
    auto out = BatchNormRelu(bn1_, cpu::Convolve(*conv1_, x), {}, fused_bn_);
    return BatchNormRelu(bn2_, cpu::Convolve(*conv2_, out), Downsample(downsample_, x), fused_bn_);
  }
  nn::BatchNorm2d last_bn() { return bn2_; }

 private:
  bool fused_bn_;
  nn::Conv2d conv1_;
  nn::BatchNorm2d bn1_;
  nn::Conv2d conv2_;
  nn::BatchNorm2d bn2_;
  nn::Sequential downsample_;
};
TORCH_MODULE(BasicBlock);

// 1x1 reduce, 3x3 (carrying the stride: v1.5), 1x1 expand by 4.
class BottleneckImpl : public nn::Module {
 public:
  static constexpr int64_t kExpansion = 4;
  BottleneckImpl(int64_t in, int64_t planes, int64_t stride, nn::Sequential downsample,
                 bool fused_bn)
      : fused_bn_(fused_bn),
        conv1_(register_module("conv1", Conv(in, planes, 1, 1))),
        bn1_(register_module("bn1", nn::BatchNorm2d(planes))),
        conv2_(register_module("conv2", Conv(planes, planes, 3, stride))),
        bn2_(register_module("bn2", nn::BatchNorm2d(planes))),
        conv3_(register_module("conv3", Conv(planes, planes * kExpansion, 1, 1))),
        bn3_(register_module("bn3", nn::BatchNorm2d(planes * kExpansion))),
        downsample_(downsample) {
    if (downsample_) register_module("downsample", downsample_);
  }
  torch::Tensor forward(torch::Tensor x) {
    auto out = BatchNormRelu(bn1_, cpu::Convolve(*conv1_, x), {}, fused_bn_);
    out = BatchNormRelu(bn2_, cpu::Convolve(*conv2_, out), {}, fused_bn_);
    return BatchNormRelu(bn3_, cpu::Convolve(*conv3_, out), Downsample(downsample_, x), fused_bn_);
  }
  nn::BatchNorm2d last_bn() { return bn3_; }

 private:
  bool fused_bn_;
  nn::Conv2d conv1_;
  nn::BatchNorm2d bn1_;
  nn::Conv2d conv2_;
  nn::BatchNorm2d bn2_;
  nn::Conv2d conv3_;
  nn::BatchNorm2d bn3_;
  nn::Sequential downsample_;
};
TORCH_MODULE(Bottleneck);

struct Spec {
  bool bottleneck;
  std::vector<int64_t> blocks;
};

const std::map<std::string, Spec>& Specs() {
  static const std::map<std::string, Spec> specs = {{"resnet18", {false, {2, 2, 2, 2}}},
                                                    {"resnet34", {false, {3, 4, 6, 3}}},
                                                    {"resnet50", {true, {3, 4, 6, 3}}},
                                                    {"resnet101", {true, {3, 4, 23, 3}}},
                                                    {"resnet152", {true, {3, 8, 36, 3}}}};
  return specs;
}

}  // namespace

ResNetImpl::ResNetImpl(bool bottleneck, const std::vector<int64_t>& blocks, int64_t num_classes,
                       bool zero_init_residual, bool fused_bn)
    : fused_bn_(fused_bn) {
  conv1_ = register_module(
      "conv1", nn::Conv2d(nn::Conv2dOptions(3, 64, 7).stride(2).padding(3).bias(false)));
  bn1_ = register_module("bn1", nn::BatchNorm2d(64));
  layer1_ = register_module("layer1", MakeStage(bottleneck, 64, blocks[0], 1));
  layer2_ = register_module("layer2", MakeStage(bottleneck, 128, blocks[1], 2));
  layer3_ = register_module("layer3", MakeStage(bottleneck, 256, blocks[2], 2));
  layer4_ = register_module("layer4", MakeStage(bottleneck, 512, blocks[3], 2));
  fc_ = register_module(
      "fc", nn::Linear(512 * (bottleneck ? BottleneckImpl::kExpansion : 1), num_classes));

  c10::NoGradGuard no_grad;
  for (auto& module : modules(/*include_self=*/false)) {
    if (auto* conv = module->as<nn::Conv2d>()) {
      nn::init::kaiming_normal_(conv->weight, 0.0, torch::kFanOut, torch::kReLU);
    } else if (auto* bn = module->as<nn::BatchNorm2d>()) {
      nn::init::ones_(bn->weight);
      nn::init::zeros_(bn->bias);
    }
  }
  // Each residual branch then starts as the identity, which helps large-batch training
  // (Goyal et al., 2017); torchvision's zero_init_residual.
  if (zero_init_residual) {
    for (auto& module : modules(false)) {
      if (auto* block = module->as<BottleneckImpl>()) nn::init::zeros_(block->last_bn()->weight);
      if (auto* block = module->as<BasicBlockImpl>()) nn::init::zeros_(block->last_bn()->weight);
    }
  }
}

nn::Sequential ResNetImpl::MakeStage(bool bottleneck, int64_t planes, int64_t blocks,
                                     int64_t stride) {
  const int64_t expansion = bottleneck ? BottleneckImpl::kExpansion : 1;
  nn::Sequential downsample{nullptr};
  if (stride != 1 || in_planes_ != planes * expansion) {
    downsample = nn::Sequential(Conv(in_planes_, planes * expansion, 1, stride),
                                nn::BatchNorm2d(planes * expansion));
  }
  nn::Sequential stage;
  for (int64_t i = 0; i < blocks; ++i) {
    const int64_t s = i == 0 ? stride : 1;
    const nn::Sequential d = i == 0 ? downsample : nn::Sequential{nullptr};
    if (bottleneck) {
      stage->push_back(Bottleneck(in_planes_, planes, s, d, fused_bn_));
    } else {
      stage->push_back(BasicBlock(in_planes_, planes, s, d, fused_bn_));
    }
    in_planes_ = planes * expansion;
  }
  return stage;
}

torch::Tensor ResNetImpl::forward(torch::Tensor x) {
  x = BatchNormRelu(bn1_, cpu::Convolve(*conv1_, x), {}, fused_bn_);
  x = torch::max_pool2d(x, 3, 2, 1);
  x = layer4_->forward(layer3_->forward(layer2_->forward(layer1_->forward(x))));
  x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
  return fc_(x);
}

ResNet MakeResNet(const std::string& name, int64_t num_classes, bool zero_init_residual,
                  bool fused_bn) {
  const auto it = Specs().find(name);
  if (it == Specs().end())
    throw UsageError(fmt::format("--model {}: unknown model; choose one of {}", name,
                                 fmt::join(ResNetNames(), ", ")));
  return ResNet(it->second.bottleneck, it->second.blocks, num_classes, zero_init_residual,
                fused_bn);
}

std::vector<std::string> ResNetNames() {
  std::vector<std::string> names;
  for (const auto& [name, spec] : Specs()) names.push_back(name);
  return names;
}

}  // namespace trainbench::train
