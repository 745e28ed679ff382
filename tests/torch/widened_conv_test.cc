// A bf16 convolution computed through fp32 kernels (train/cpu/widened_conv.h) against
// LibTorch's own bf16 convolution under CPU autocast: the output, the input's gradient and
// the weight's, within bf16's precision, in bf16 as autocast gives them, channels-last kept;
// and outside autocast bf16, the module's own forward.
#include "train/cpu/widened_conv.h"

#include <ATen/autocast_mode.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace trainbench::train {
namespace {

// CPU autocast to bf16 while it lives, as train's AutocastScope sets it.
struct Bf16Autocast {
  Bf16Autocast() {
    at::autocast::set_autocast_dtype(at::kCPU, at::kBFloat16);
    at::autocast::set_autocast_enabled(at::kCPU, true);
    at::autocast::increment_nesting();
  }
  ~Bf16Autocast() {
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    at::autocast::set_autocast_enabled(at::kCPU, false);
  }
};

double RelativeError(const at::Tensor& got, const at::Tensor& want) {
  return ((got.to(at::kFloat) - want.to(at::kFloat)).abs().max() /
          want.to(at::kFloat).abs().max().clamp_min(1e-12))
      .item<double>();
}

void Compare(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t size) {
  torch::manual_seed(7);
  torch::nn::Conv2d conv(
      torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2).bias(false));
  conv->weight.set_data(conv->weight.contiguous(at::MemoryFormat::ChannelsLast));
  const auto x = torch::randn({2, in, size, size}).contiguous(at::MemoryFormat::ChannelsLast);
  auto x1 = x.to(at::kBFloat16).requires_grad_(true);
  auto x2 = x.to(at::kBFloat16).requires_grad_(true);
  at::Tensor y1, y2, w1, w2;
  {
    const Bf16Autocast autocast;
    y1 = cpu::Convolve(*conv, x1);
    const auto dy = torch::randn_like(y1, at::kFloat);
    (y1.to(at::kFloat) * dy).sum().backward();
    w1 = conv->weight.grad().clone();
    conv->weight.mutable_grad().reset();
    y2 = conv->forward(x2);  // LibTorch's bf16 convolution
    (y2.to(at::kFloat) * dy).sum().backward();
    w2 = conv->weight.grad().clone();
  }
  // Through the fp32 kernels where this CPU's oneDNN has no bf16 convolution (its last step
  // the rounding to bf16), else the module's own.
  EXPECT_EQ(y1.grad_fn()->name().find("ToCopy") != std::string::npos, cpu::WidensBf16Convolutions())
      << y1.grad_fn()->name();
  EXPECT_EQ(y1.scalar_type(), at::kBFloat16);
  EXPECT_TRUE(y1.is_contiguous(at::MemoryFormat::ChannelsLast));
  EXPECT_EQ(x1.grad().scalar_type(), at::kBFloat16);
  EXPECT_EQ(w1.scalar_type(), at::kFloat);  // the fp32 master weight's gradient
  // bf16 has 8 bits of mantissa: 2^-8 relative, and the sums' rounding on top.
  EXPECT_LT(RelativeError(y1, y2), 2e-2);
  EXPECT_LT(RelativeError(x1.grad(), x2.grad()), 2e-2);
  EXPECT_LT(RelativeError(w1, w2), 2e-2);
}

TEST(WidenedConvTest, Bf16MatchesLibTorchsBf16Convolution) {
  Compare(16, 32, 3, 1, 12);
  Compare(32, 64, 1, 2, 10);  // a downsample's
  Compare(3, 16, 7, 2, 20);   // the stem's shape
}

TEST(WidenedConvTest, OutsideBf16AutocastItIsTheModulesForward) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(4, 8, 3).padding(1));
  const auto x = torch::randn({1, 4, 6, 6});
  EXPECT_TRUE(torch::equal(cpu::Convolve(*conv, x), conv->forward(x)));
}

}  // namespace
}  // namespace trainbench::train
