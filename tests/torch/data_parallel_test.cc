// DataParallel across real processes: tests/cli/train_distributed.sh runs this binary twice
// with RANK/WORLD_SIZE set (torchrun's variables) and --gtest_filter on these tests; without
// them they skip. Each rank computes gradients on its half of one global batch; after
// AverageGradients both hold the gradient one process computes on the whole batch.
#include "train/data_parallel.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdlib>

#include "common/error.h"

namespace trainbench::train {
namespace {

bool Launched() { return std::getenv("WORLD_SIZE") != nullptr; }

TEST(DataParallelTest, AveragedGradientsEqualOneProcessOnTheGlobalBatch) {
  if (!Launched()) GTEST_SKIP() << "run by tests/cli/train_distributed.sh with RANK/WORLD_SIZE";
  const LaunchInfo launch = ReadLaunchEnvironment();
  DataParallel dp(launch, torch::kCPU, 60);
  ASSERT_EQ(dp.world_size(), 2);
  // Different starting weights per rank; the broadcast makes them rank 0's.
  torch::manual_seed(100 + launch.rank);
  torch::nn::Linear model(5, 3);
  dp.Broadcast(model->parameters());
  torch::manual_seed(100);
  torch::nn::Linear rank0(5, 3);
  for (size_t i = 0; i < model->parameters().size(); ++i)
    ASSERT_TRUE(torch::equal(model->parameters()[i], rank0->parameters()[i]));

  torch::manual_seed(7);
  const auto x = torch::randn({8, 5}), y = torch::randn({8, 3});
  const auto mine = torch::indexing::Slice(4 * launch.rank, 4 * launch.rank + 4);
  torch::mse_loss(model(x.index({mine})), y.index({mine})).backward();
  dp.AverageGradients(model->parameters());
  torch::mse_loss(rank0(x), y).backward();
  for (size_t i = 0; i < model->parameters().size(); ++i)
    EXPECT_TRUE(
        torch::allclose(model->parameters()[i].grad(), rank0->parameters()[i].grad(), 1e-5, 1e-6))
        << "parameter " << i << " on rank " << launch.rank;
  EXPECT_EQ(dp.Max(launch.rank == 0 ? 1.5 : 4.0), 4.0);
  dp.Barrier();
}

TEST(DataParallelTest, LaunchEnvironmentIsValidated) {
  if (Launched()) GTEST_SKIP() << "checked in a single process";
  EXPECT_EQ(ReadLaunchEnvironment().world_size, 1);
  setenv("WORLD_SIZE", "2", 1);
  setenv("RANK", "2", 1);
  EXPECT_THROW(ReadLaunchEnvironment(), UsageError);  // rank not below the world size
  setenv("RANK", "x", 1);
  EXPECT_THROW(ReadLaunchEnvironment(), UsageError);
  setenv("RANK", "1", 1);
  setenv("MASTER_PORT", "70000", 1);
  EXPECT_THROW(ReadLaunchEnvironment(), UsageError);
  setenv("MASTER_PORT", "29999", 1);
  const LaunchInfo info = ReadLaunchEnvironment();
  EXPECT_EQ(info.rank, 1);
  EXPECT_EQ(info.master_port, 29999);
  EXPECT_EQ(info.launcher, "torchrun");
  for (const char* name : {"WORLD_SIZE", "RANK", "MASTER_PORT"}) unsetenv(name);
}

}  // namespace
}  // namespace trainbench::train
