// The fused BatchNorm + ReLU (+ residual) kernels against LibTorch's own BatchNorm2d, add and
// ReLU on the same inputs: outputs, running statistics and every gradient. The CPU's run
// everywhere; the CUDA kernels where the build has them and a GPU is present (the GPU host),
// skipped elsewhere.
#include <gtest/gtest.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include "train/cpu/bn_relu_kernels.h"
#include "train/fused_batch_norm.h"
#include "train/resnet.h"

namespace trainbench::train {
namespace {

struct Case {
  torch::Device device;
  at::ScalarType dtype;
  int64_t n, c, h, w;
  bool residual;
  double tolerance;
};

// Whether `y` came out of the fused kernels (their autograd node), not the ATen fallback.
bool RanFused(const at::Tensor& y) {
  return y.grad_fn() && y.grad_fn()->name().find("BnReluFunction") != std::string::npos;
}

void Compare(const Case& k, double mean = 1) {
  torch::manual_seed(5);
  const auto on = torch::TensorOptions().device(k.device);
  torch::nn::BatchNorm2d fused_bn(k.c), plain_bn(k.c);
  fused_bn->to(k.device);
  plain_bn->to(k.device);
  {
    torch::NoGradGuard no_grad;
    auto w = torch::rand({k.c}, on) + 0.5, b = torch::randn({k.c}, on);
    fused_bn->weight.copy_(w);
    plain_bn->weight.copy_(w);
    fused_bn->bias.copy_(b);
    plain_bn->bias.copy_(b);
  }
  auto x = (torch::randn({k.n, k.c, k.h, k.w}, on) * 3 + mean)
               .to(k.dtype)
               .contiguous(at::MemoryFormat::ChannelsLast);
  auto z = torch::randn_like(x);
  auto x1 = x.detach().clone().requires_grad_(true), x2 = x.detach().clone().requires_grad_(true);
  auto z1 = z.detach().clone().requires_grad_(true), z2 = z.detach().clone().requires_grad_(true);
  auto y1 = BatchNormRelu(fused_bn, x1, k.residual ? z1 : at::Tensor(), true);
  EXPECT_TRUE(RanFused(y1)) << "the fused kernels did not take the case";
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
  EXPECT_TRUE(torch::allclose(y1.to(torch::kFloat), y2, t, t))
      << "y max diff " << (y1.to(torch::kFloat) - y2).abs().max().item<float>();
  EXPECT_TRUE(torch::allclose(fused_bn->running_mean, plain_bn->running_mean, 1e-4, 1e-4))
      << "running mean max diff "
      << (fused_bn->running_mean - plain_bn->running_mean).abs().max().item<float>();
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
    if (!FusedBatchNormAvailable(torch::kCUDA)) GTEST_SKIP() << "built without the CUDA kernels";
    if (!torch::cuda::is_available()) GTEST_SKIP() << "no GPU";
  }
};

TEST_F(FusedBatchNormTest, Float32MatchesBatchNormAndRelu) {
  Compare({torch::kCUDA, torch::kFloat, 4, 64, 14, 14, false, 1e-4});
  Compare({torch::kCUDA, torch::kFloat, 2, 256, 7, 9, true, 1e-4});
}

TEST_F(FusedBatchNormTest, HalfAndBFloat16MatchWithinTheirPrecision) {
  Compare({torch::kCUDA, torch::kHalf, 8, 128, 28, 28, true, 2e-2});
  Compare({torch::kCUDA, torch::kBFloat16, 8, 64, 56, 56, false, 6e-2});
  Compare({torch::kCUDA, torch::kBFloat16, 4, 2048, 7, 7, true, 6e-2});
}

// Shapes the kernels do not take run LibTorch's ops instead, with the same result.
void ExpectFallBack(const at::Tensor& x) {
  torch::nn::BatchNorm2d bn(x.size(1)), reference(x.size(1));
  bn->to(x.device());
  reference->to(x.device());
  auto z = torch::randn_like(x);
  const auto y = BatchNormRelu(bn, x, z, true);
  EXPECT_FALSE(RanFused(y));
  EXPECT_TRUE(torch::allclose(y, (reference->forward(x) + z).relu(), 1e-6, 1e-6));
  EXPECT_TRUE(torch::allclose(bn->running_mean, reference->running_mean));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
}

TEST_F(FusedBatchNormTest, UnsupportedShapesFallBack) {
  ExpectFallBack(torch::randn({2, 3, 5, 5}, torch::kCUDA));  // 3 channels, not channels-last
}

// The CPU kernels: every build has them.
TEST(FusedBatchNormCpuTest, Float32MatchesBatchNormAndRelu) {
  ASSERT_TRUE(FusedBatchNormAvailable(torch::kCPU));
  Compare({torch::kCPU, torch::kFloat, 4, 64, 14, 14, false, 1e-4});
  Compare({torch::kCPU, torch::kFloat, 2, 256, 7, 9, true, 1e-4});
  Compare({torch::kCPU, torch::kFloat, 3, 2048, 7, 7, true, 1e-4});  // ResNet-50's last stage
  Compare({torch::kCPU, torch::kFloat, 1, 4, 3, 1, true, 1e-4});     // fewer rows than a chunk
  Compare({torch::kCPU, torch::kFloat, 4, 2048, 2, 2, true, 1e-4});
  Compare({torch::kCPU, torch::kFloat, 4, 512, 2, 2, false, 1e-4});
}

// The passes spread over the intra-op pool: the plugin is built with LibTorch's OpenMP.
TEST(FusedBatchNormCpuTest, KernelsRunOnEveryIntraOpThread) {
  const int threads = at::get_num_threads();
  at::set_num_threads(2);
  EXPECT_EQ(cpu::BnKernelThreads(), 2);
  at::set_num_threads(threads);
}

// Statistics about a pivot keep the variance when the mean dwarfs the spread.
TEST(FusedBatchNormCpuTest, LargeMeanKeepsTheVariance) {
  // LibTorch's own float batch norm is off by 1.6e-4 from float64 here: the tolerance
  // allows that much.
  Compare({torch::kCPU, torch::kFloat, 4, 32, 16, 16, true, 1e-3}, /*mean=*/1000);
}

TEST(FusedBatchNormCpuTest, BFloat16MatchesWithinItsPrecision) {
  Compare({torch::kCPU, torch::kBFloat16, 8, 64, 28, 28, false, 6e-2});
  Compare({torch::kCPU, torch::kBFloat16, 4, 512, 7, 7, true, 6e-2});
}

TEST(FusedBatchNormCpuTest, UnsupportedShapesFallBack) {
  ExpectFallBack(torch::randn({2, 6, 5, 5}).contiguous(at::MemoryFormat::ChannelsLast));  // 6 % 4
  ExpectFallBack(torch::randn({2, 8, 5, 5}));                                             // NCHW
}

// Eval mode normalises with the running statistics: LibTorch's ops.
TEST(FusedBatchNormCpuTest, EvalModeRunsTheAtenOps) {
  torch::nn::BatchNorm2d bn(8);
  bn->eval();
  const auto x = torch::randn({2, 8, 4, 4}).contiguous(at::MemoryFormat::ChannelsLast);
  const auto y = BatchNormRelu(bn, x, {}, true);
  EXPECT_TRUE(torch::allclose(y, bn->forward(x).relu()));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 0);
}

// A whole ResNet-50 step on the CPU, from the same weights and batch: the loss and the
// gradients of the fused channels-last model against LibTorch's ops in channels-last. An
// untrained ResNet's gradients are ill-conditioned (LibTorch's own NCHW and channels-last
// runs differ by up to 8% in one tensor on some batches), so the yardstick is that spread:
// the fused model's distance from LibTorch's channels-last gradients, over all of them, is
// within a small multiple of LibTorch's distance between its two layouts.
struct Step {
  double loss;
  at::Tensor gradients;  // every parameter's, flattened and joined
};

Step ResNetStep(bool fused, bool channels_last) {
  torch::manual_seed(11);
  auto model = MakeResNet("resnet50", 10, false, fused);
  auto x = torch::randn({4, 3, 64, 64});
  if (channels_last) {
    torch::NoGradGuard no_grad;
    for (auto& p : model->parameters())
      if (p.dim() == 4) p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
    x = x.contiguous(at::MemoryFormat::ChannelsLast);
  }
  const auto loss = torch::cross_entropy_loss(model->forward(x), torch::tensor({1, 3, 5, 7}));
  loss.backward();
  std::vector<at::Tensor> grads;
  for (const auto& p : model->parameters()) grads.push_back(p.grad().flatten());
  return {loss.item<double>(), torch::cat(grads)};
}

TEST(FusedBatchNormCpuTest, ResNetStepMatchesLibTorchWithinItsOwnSpread) {
  const Step fused = ResNetStep(true, true), cl = ResNetStep(false, true),
             nchw = ResNetStep(false, false);
  EXPECT_NEAR(fused.loss, cl.loss, 1e-4);
  const auto distance = [&](const Step& s) {
    return ((s.gradients - cl.gradients).norm() / cl.gradients.norm()).item<double>();
  };
  EXPECT_LT(distance(fused), std::max(3 * distance(nchw), 1e-4))
      << "LibTorch's layouts differ by " << distance(nchw);
}

}  // namespace
}  // namespace trainbench::train
