// DataParallel across real processes: tests/cli/train_distributed_test.sh runs this binary twice
// with RANK/WORLD_SIZE set (torchrun's variables) and --gtest_filter on these tests; without
// them they skip. Each rank computes gradients on its half of one global batch; after
// AverageGradients both hold the gradient one process computes on the whole batch, through
// the per-step flatten and through persistent buckets (several, so the bucket order and the
// hooks that start them are exercised). TRAINBENCH_TEST_DEVICE=cuda and
// TRAINBENCH_TEST_BACKEND=gloo|nccl run the same on a GPU (the GPU host: two ranks on one GPU
// over Gloo, and NCCL as a world of one).
#include "train/data_parallel.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"

namespace trainbench::train {
namespace {

bool Launched() { return std::getenv("WORLD_SIZE") != nullptr; }

torch::Device TestDevice() {
  const char* d = std::getenv("TRAINBENCH_TEST_DEVICE");
  return d && *d ? torch::Device(d) : torch::Device(torch::kCPU);
}

std::string TestBackend() {
  const char* b = std::getenv("TRAINBENCH_TEST_BACKEND");
  return b && *b ? b : "auto";
}

torch::nn::Sequential TwoLayers(uint64_t seed, const torch::Device& device) {
  torch::manual_seed(seed);
  torch::nn::Sequential model(torch::nn::Linear(5, 7), torch::nn::ReLU(), torch::nn::Linear(7, 3));
  model->to(device);
  return model;
}

// Each rank's half of the global batch of 8 through `model`, averaged by `dp`, against one
// process's gradient on the whole batch. `buckets` > 0 attaches buckets of that many bytes
// first and runs two steps (zeroing in between), as training does.
void CheckAveraged(DataParallel& dp, const LaunchInfo& launch, int64_t bucket_bytes) {
  const torch::Device device = TestDevice();
  auto model = TwoLayers(100 + launch.rank, device);  // different weights per rank...
  dp.Broadcast(model->parameters());                  // ...until rank 0's are broadcast
  auto whole = TwoLayers(100, device);
  for (size_t i = 0; i < model->parameters().size(); ++i)
    ASSERT_TRUE(torch::equal(model->parameters()[i], whole->parameters()[i]));
  if (bucket_bytes > 0) {
    dp.AttachGradientBuckets(model->parameters(), bucket_bytes);
    EXPECT_GT(dp.buckets(), 1u);
  }
  const int world = dp.world_size(), half = 8 / world;
  for (int step = 0; step < (bucket_bytes > 0 ? 2 : 1); ++step) {
    torch::manual_seed(7 + step);
    const auto x = torch::randn({8, 5}).to(device), y = torch::randn({8, 3}).to(device);
    const auto mine = torch::indexing::Slice(half * launch.rank, half * launch.rank + half);
    if (bucket_bytes > 0) dp.ZeroGradients();
    torch::mse_loss(model->forward(x.index({mine})), y.index({mine})).backward();
    dp.AverageGradients(model->parameters());
    for (auto& p : whole->parameters()) p.mutable_grad() = at::Tensor();
    // Equal halves: the mean of the halves' mean losses is the whole batch's mean loss.
    torch::mse_loss(whole->forward(x), y).backward();
    for (size_t i = 0; i < model->parameters().size(); ++i) {
      EXPECT_TRUE(
          torch::allclose(model->parameters()[i].grad(), whole->parameters()[i].grad(), 1e-5, 1e-6))
          << "parameter " << i << " on rank " << launch.rank << ", step " << step
          << (bucket_bytes > 0 ? " (buckets)" : " (flatten)");
    }
  }
}

TEST(DataParallelTest, AveragedGradientsEqualOneProcessOnTheGlobalBatch) {
  if (!Launched())
    GTEST_SKIP() << "run by tests/cli/train_distributed_test.sh with RANK/WORLD_SIZE";
  const LaunchInfo launch = ReadLaunchEnvironment();
  DataParallel dp(launch, TestDevice(), 60, TestBackend());
  ASSERT_TRUE(dp.world_size() == 2 || dp.world_size() == 1);
  if (TestBackend() != "auto") {
    EXPECT_EQ(dp.backend(), TestBackend());
  }
  CheckAveraged(dp, launch, 0);   // flatten
  CheckAveraged(dp, launch, 64);  // a bucket per few parameters
  EXPECT_EQ(dp.Max(launch.rank == 0 ? 1.5 : 4.0), dp.world_size() == 2 ? 4.0 : 1.5);
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

TEST(DataParallelTest, SlurmTasksAreRanks) {
  if (Launched()) GTEST_SKIP() << "checked in a single process";
  // A batch script's own process: SLURM_PROCID without srun's step variables.
  setenv("SLURM_PROCID", "0", 1);
  setenv("SLURM_NTASKS", "4", 1);
  setenv("SLURM_JOB_NODELIST", "node[07-08]", 1);
  EXPECT_EQ(ReadLaunchEnvironment().launcher, "none");
  setenv("SLURM_STEP_NUM_TASKS", "4", 1);
  setenv("SLURM_PROCID", "3", 1);
  setenv("SLURM_LOCALID", "1", 1);
  LaunchInfo info = ReadLaunchEnvironment();
  EXPECT_EQ(info.launcher, "slurm");
  EXPECT_EQ(info.world_size, 4);
  EXPECT_EQ(info.rank, 3);
  EXPECT_EQ(info.local_rank, 1);
  EXPECT_EQ(info.master_addr, "node07");  // the job's first node, without a step's list
  for (const auto& [list, first] :
       std::vector<std::pair<std::string, std::string>>{{"hosta,hostb", "hosta"},
                                                        {"gpu3", "gpu3"},
                                                        {"gpu3,node[1-4]", "gpu3"},
                                                        {"node[001-004,010]", "node001"},
                                                        {"r[1-2]-gpu,x", "r1-gpu"}}) {
    setenv("SLURM_STEP_NODELIST", list.c_str(), 1);
    EXPECT_EQ(ReadLaunchEnvironment().master_addr, first) << list;
  }
  setenv("MASTER_ADDR", "10.0.0.9", 1);  // the user's choice wins
  EXPECT_EQ(ReadLaunchEnvironment().master_addr, "10.0.0.9");
  setenv("SLURM_PROCID", "4", 1);
  EXPECT_THROW(ReadLaunchEnvironment(), UsageError);  // rank not below the step's tasks
  setenv("SLURM_PROCID", "1", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);  // mpirun inside an allocation: mpirun's ranks
  EXPECT_EQ(ReadLaunchEnvironment().launcher, "mpirun");
  for (const char* name :
       {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_JOB_NODELIST", "SLURM_STEP_NUM_TASKS",
        "SLURM_LOCALID", "SLURM_STEP_NODELIST", "MASTER_ADDR", "OMPI_COMM_WORLD_SIZE"})
    unsetenv(name);
}

}  // namespace
}  // namespace trainbench::train
