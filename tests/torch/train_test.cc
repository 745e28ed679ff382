// Unit tests of the LibTorch parts of `trainbench train` (built only with LibTorch): the
// foreach SGD against torch::optim::SGD, fp16 loss scaling, autocast scoping, ResNet
// structure, state-dict round trip, and the image loader's determinism across worker counts.
#include <gtest/gtest.h>
#include <torch/optim/sgd.h>

#include <cstdlib>
#include <filesystem>

#include "../unit/skip_unless.h"
#include "common/error.h"
#include "image/image_folder.h"
#include "image/train_transform.h"
#include "train/device.h"
#include "train/grad_scaler.h"
#include "train/image_loader.h"
#include "train/model_input.h"
#include "train/resnet.h"
#include "train/sgd.h"
#include "train/state_dict.h"

namespace trainbench::train {
namespace {

namespace fs = std::filesystem;

TEST(SgdTest, MatchesTorchOptimSgdWithMomentumAndWeightDecay) {
  torch::manual_seed(3);
  auto a = torch::randn({5, 4}, torch::requires_grad());
  auto b = torch::randn({7}, torch::requires_grad());
  auto a2 = a.detach().clone().requires_grad_(true);
  auto b2 = b.detach().clone().requires_grad_(true);
  Sgd ours({a, b}, {0.1, 0.9, 1e-4});
  EXPECT_TRUE(ours.fused());  // PyTorch 2.4 and later: the CPU's fused kernel
  torch::optim::SGD theirs({a2, b2},
                           torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(1e-4));
  for (int step = 0; step < 4; ++step) {
    ours.ZeroGrad();
    theirs.zero_grad();
    ((a * a).sum() + (b.sin()).sum()).backward();
    ((a2 * a2).sum() + (b2.sin()).sum()).backward();
    ours.Step();
    theirs.step();
    ASSERT_TRUE(torch::allclose(a, a2, 1e-6, 1e-7)) << "step " << step;
    ASSERT_TRUE(torch::allclose(b, b2, 1e-6, 1e-7)) << "step " << step;
  }
}

TEST(GradScalerTest, UnscalesSkipsNonFiniteAndAdjustsTheScale) {
  GradScaler scaler(torch::kCPU, {1024.0, 2.0, 0.5, 2});
  auto p = torch::ones({3}, torch::requires_grad());
  scaler.Scale((p * 3).sum()).backward();
  EXPECT_TRUE(torch::allclose(p.grad(), torch::full({3}, 3.0 * 1024)));
  scaler.Unscale({p});
  EXPECT_TRUE(scaler.LastStepFinite());
  EXPECT_TRUE(torch::allclose(p.grad(), torch::full({3}, 3.0)));
  scaler.Update();
  EXPECT_EQ(scaler.scale(), 1024.0);
  scaler.Update();  // second clean step in a row: grows
  EXPECT_EQ(scaler.scale(), 2048.0);

  p.mutable_grad() = torch::tensor({1.0f, std::numeric_limits<float>::infinity(), 0.0f});
  scaler.Unscale({p});
  EXPECT_FALSE(scaler.LastStepFinite());
  scaler.Update();
  EXPECT_EQ(scaler.scale(), 1024.0);
  EXPECT_EQ(scaler.skipped_steps(), 1);
  // A step with an inf leaves the parameters alone.
  Sgd sgd({p}, {0.1, 0.9, 0});
  sgd.Step(scaler.found_inf());
  EXPECT_TRUE(torch::equal(p, torch::ones({3})));
  p.mutable_grad() = torch::tensor({NAN, 1.0f, 0.0f});
  scaler.Unscale({p});
  EXPECT_FALSE(scaler.LastStepFinite());
  // Huge but finite gradients are not mistaken for overflow.
  p.mutable_grad() = torch::full({3}, 3e38f);
  scaler.Unscale({p});
  EXPECT_TRUE(scaler.LastStepFinite());
}

TEST(AutocastTest, Bf16InsideTheScopeOnlyOnCpu) {
  auto conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 4, 3));
  auto x = torch::randn({1, 3, 8, 8});
  {
    AutocastScope scope(torch::Device(torch::kCPU), Precision::kBf16);
    EXPECT_EQ(conv(x).scalar_type(), torch::kBFloat16);
  }
  EXPECT_EQ(conv(x).scalar_type(), torch::kFloat);
  {
    AutocastScope scope(torch::Device(torch::kCPU), Precision::kFp32);
    EXPECT_EQ(conv(x).scalar_type(), torch::kFloat);
  }
}

int64_t Count(ResNet& model) {
  int64_t n = 0;
  for (const auto& p : model->parameters()) n += p.numel();
  return n;
}

TEST(ResNetTest, ParameterCountsAndShapesMatchTorchvision) {
  auto r50 = MakeResNet("resnet50", 1000, false);
  EXPECT_EQ(Count(r50), 25557032);  // torchvision.models.resnet50()
  auto r18 = MakeResNet("resnet18", 1000, true);
  EXPECT_EQ(Count(r18), 11689512);
  EXPECT_EQ(r18->forward(torch::randn({2, 3, 64, 64})).sizes(), (std::vector<int64_t>{2, 1000}));
  const auto names = r50->named_parameters();
  EXPECT_TRUE(names.contains("layer1.0.downsample.1.weight"));
  EXPECT_TRUE(names.contains("layer4.2.conv3.weight"));
  // v1.5: the stride sits on the 3x3 convolution of the first block of a stage.
  auto* conv2 = r50->named_modules()["layer2.0.conv2"]->as<torch::nn::Conv2d>();
  auto* conv1 = r50->named_modules()["layer2.0.conv1"]->as<torch::nn::Conv2d>();
  EXPECT_EQ(conv2->options.stride()->at(0), 2);
  EXPECT_EQ(conv1->options.stride()->at(0), 1);
  // zero_init_residual zeroes the last BatchNorm of every block, and only that one.
  const auto r18_params = r18->named_parameters();
  EXPECT_EQ(r18_params["layer1.0.bn2.weight"].abs().sum().item<double>(), 0.0);
  EXPECT_GT(r18_params["layer1.0.bn1.weight"].abs().sum().item<double>(), 0.0);
  EXPECT_THROW(MakeResNet("resnet7", 1000, false), UsageError);
}

TEST(StateDictTest, RoundTripsNamesAndValues) {
  auto model = MakeResNet("resnet18", 10, false);
  const fs::path path = fs::temp_directory_path() / ("trainbench_sd_" + std::to_string(getpid()));
  SaveStateDict(*model, path.string());
  const auto loaded = LoadStateDict(path.string());
  fs::remove(path);
  const auto params = model->named_parameters();
  const auto buffers = model->named_buffers();
  EXPECT_EQ(loaded.size(), params.size() + buffers.size());
  for (const auto& [name, tensor] : loaded) {
    const at::Tensor* original = params.find(name);
    if (!original) original = buffers.find(name);
    ASSERT_NE(original, nullptr) << name;
    EXPECT_TRUE(torch::equal(tensor, *original)) << name;
  }
}

TEST(ImageLoaderTest, SameBatchesWhateverTheWorkerCount) {
  const fs::path dir =
      fs::temp_directory_path() / ("trainbench_loader_" + std::to_string(getpid()));
  const std::string command = std::string("/usr/bin/python3 ") + TRAINBENCH_SOURCE_DIR +
                              "/tests/fixtures/make_images.py " + dir.string();
  TRAINBENCH_SKIP_UNLESS(std::system(command.c_str()) == 0,
                         "Pillow fixtures unavailable (/usr/bin/python3 with PIL)");
  auto batches = [&](int workers) {
    ImageLoaderOptions o;
    o.batch_size = 2;
    o.image_size = 32;
    o.workers = workers;
    o.seed = 9;
    ImageLoader loader(image::IndexImages((dir / "folder").string()), o);
    std::vector<Batch> out;
    for (int i = 0; i < 4; ++i) out.push_back(loader.Next());  // 8 samples: 2+ epochs of 3
    return out;
  };
  const auto one = batches(1), three = batches(3);
  fs::remove_all(dir);
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].images.scalar_type(), at::kByte);
    EXPECT_EQ(one[i].images.sizes(), (std::vector<int64_t>{2, 32, 32, 3}));
    EXPECT_TRUE(torch::equal(one[i].images, three[i].images)) << i;
    EXPECT_TRUE(torch::equal(one[i].labels, three[i].labels)) << i;
  }
  // Each epoch visits every sample once: labels of the first 3 samples are {0, 0, 1}.
  auto first = torch::cat({one[0].labels, one[1].labels}).slice(0, 0, 3);
  const auto sorted = std::get<0>(first.sort());
  EXPECT_EQ(std::vector<int64_t>(sorted.data_ptr<int64_t>(), sorted.data_ptr<int64_t>() + 3),
            std::vector<int64_t>({0, 0, 1}));
}

// The device-side normalisation of uint8 batches gives what the CPU transform's Normalize
// gives, in both memory formats.
TEST(ModelInputTest, MatchesTheCpuNormalizeInBothLayouts) {
  const int s = 8;
  auto bytes = torch::randint(0, 256, {2, s, s, 3}, torch::kByte);
  for (const bool channels_last : {false, true}) {
    const ModelInput input(torch::kCPU, channels_last);
    const at::Tensor x = input(bytes);
    EXPECT_EQ(x.sizes(), (std::vector<int64_t>{2, 3, s, s}));
    EXPECT_EQ(x.is_contiguous(at::MemoryFormat::ChannelsLast), channels_last);
    image::TrainTransform transform({s, true, false});
    for (int64_t i = 0; i < 2; ++i) {
      std::vector<float> chw(static_cast<size_t>(3 * s * s));
      transform.Normalize(bytes[i].contiguous().data_ptr<uint8_t>(), false, chw.data());
      const at::Tensor expected = torch::from_blob(chw.data(), {3, s, s}, torch::kFloat);
      EXPECT_TRUE(torch::allclose(x[i], expected, 1e-5, 1e-5)) << channels_last;
    }
  }
  const at::Tensor floats = torch::randn({1, 3, s, s});
  EXPECT_TRUE(ModelInput(torch::kCPU, false)(floats).is_same(floats));
}

}  // namespace
}  // namespace trainbench::train
