// The fused BatchNorm + ReLU (+ residual) CUDA kernels against LibTorch's own BatchNorm2d,
// add and ReLU on the same inputs: outputs, running statistics and every gradient. Runs
// where the build has the kernels and a GPU is present (the GPU host); skipped elsewhere.
#include <gtest/gtest.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include "train/fused_batch_norm.h"

namespace trainbench::train {
namespace {

struct Case {
  at::ScalarType dtype;
  int64_t n, c, h, w;
  bool residual;
  double tolerance;
};

void Compare(const Case& k) {
  torch::manual_seed(5);
  const auto on = torch::TensorOptions().device(torch::kCUDA);
  torch::nn::BatchNorm2d fused_bn(k.c), plain_bn(k.c);
  fused_bn->to(torch::kCUDA);
  plain_bn->to(torch::kCUDA);
  {
    torch::NoGradGuard no_grad;
    auto w = torch::rand({k.c}, on) + 0.5, b = torch::randn({k.c}, on);
    fused_bn->weight.copy_(w);
    plain_bn->weight.copy_(w);
    fused_bn->bias.copy_(b);
    plain_bn->bias.copy_(b);
  }
  auto x = (torch::randn({k.n, k.c, k.h, k.w}, on) * 3 + 1)
               .to(k.dtype)
               .contiguous(at::MemoryFormat::ChannelsLast);
  auto z = torch::randn_like(x);
  auto x1 = x.detach().clone().requires_grad_(true), x2 = x.detach().clone().requires_grad_(true);
  auto z1 = z.detach().clone().requires_grad_(true), z2 = z.detach().clone().requires_grad_(true);
  auto y1 = BatchNormRelu(fused_bn, x1, k.residual ? z1 : at::Tensor(), true);
  // The reference in float, as autocast would run it.
  auto y2 = plain_bn->forward(x2.to(torch::kFloat));
  if (k.residual) y2 = y2 + z2.to(torch::kFloat);
  y2 = y2.relu();
  const auto dy = torch::randn_like(y2);
  (y1.to(torch::kFloat) * dy).sum().backward();
  (y2 * dy).sum().backward();
  const double t = k.tolerance;
  EXPECT_EQ(y1.scalar_type(), k.dtype);
  EXPECT_TRUE(y1.is_contiguous(at::MemoryFormat::ChannelsLast));
  EXPECT_TRUE(torch::allclose(y1.to(torch::kFloat), y2, t, t)) << "y";
  EXPECT_TRUE(torch::allclose(fused_bn->running_mean, plain_bn->running_mean, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(fused_bn->running_var, plain_bn->running_var, 1e-3, 1e-3));
  EXPECT_EQ(fused_bn->num_batches_tracked.item<int64_t>(), 1);
  EXPECT_TRUE(torch::allclose(x1.grad().to(torch::kFloat), x2.grad().to(torch::kFloat), t, t))
      << "dx max diff " << (x1.grad().to(torch::kFloat) - x2.grad()).abs().max().item<float>();
  if (k.residual) {
    EXPECT_TRUE(torch::allclose(z1.grad().to(torch::kFloat), z2.grad().to(torch::kFloat), t, t));
  }
  // Parameter gradients sum over every pixel: compare relative to their size.
  const auto rel = [](const at::Tensor& a, const at::Tensor& b) {
    return ((a - b).abs().max() / (b.abs().max() + 1e-6)).item<double>();
  };
  EXPECT_LT(rel(fused_bn->weight.grad(), plain_bn->weight.grad()), 10 * t) << "dweight";
  EXPECT_LT(rel(fused_bn->bias.grad(), plain_bn->bias.grad()), 10 * t) << "dbias";
}

class FusedBatchNormTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!FusedBatchNormAvailable()) GTEST_SKIP() << "built without the CUDA kernels";
    if (!torch::cuda::is_available()) GTEST_SKIP() << "no GPU";
  }
};

TEST_F(FusedBatchNormTest, Float32MatchesBatchNormAndRelu) {
  Compare({torch::kFloat, 4, 64, 14, 14, false, 1e-4});
  Compare({torch::kFloat, 2, 256, 7, 9, true, 1e-4});
}

TEST_F(FusedBatchNormTest, HalfAndBFloat16MatchWithinTheirPrecision) {
  Compare({torch::kHalf, 8, 128, 28, 28, true, 2e-2});
  Compare({torch::kBFloat16, 8, 64, 56, 56, false, 6e-2});
  Compare({torch::kBFloat16, 4, 2048, 7, 7, true, 6e-2});
}

// Shapes the kernels do not take run LibTorch's ops instead, with the same result.
TEST_F(FusedBatchNormTest, UnsupportedShapesFallBack) {
  torch::nn::BatchNorm2d bn(3), reference(3);
  bn->to(torch::kCUDA);
  reference->to(torch::kCUDA);
  auto x = torch::randn({2, 3, 5, 5}, torch::kCUDA);  // 3 channels, not channels-last
  auto z = torch::randn_like(x);
  const auto y = BatchNormRelu(bn, x, z, true);
  EXPECT_TRUE(torch::allclose(y, (reference->forward(x) + z).relu(), 1e-6, 1e-6));
  EXPECT_TRUE(torch::allclose(bn->running_mean, reference->running_mean));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
}

}  // namespace
}  // namespace trainbench::train
