// LLM checkpoint sizes as MLPerf Storage v3.0's rules give them (computed by DLIO in units of
// 2^30 bytes and printed as "GB"): llama3 8B 105 on 8 ranks, 70B 912 on 64, 405B 5.29 "TB"
// (5,291 GiB) on 512; and the shares of the ranks add up to the whole, however split.
#include "sim/llm_checkpoint.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "config/workload_yaml.h"

namespace trainbench::sim {
namespace {

config::ModelConfig Model(const std::string& workload) {
  return config::LoadWorkload(workload, {}).config.model;
}

double TotalGiB(const config::ModelConfig& m, uint64_t ranks) {
  const auto s = CheckpointSize(m, ranks);
  return static_cast<double>(s.model_bytes + s.optimizer_bytes) / (1ull << 30);
}

TEST(LlmCheckpoint, MatchesTheRulesFigures) {
  EXPECT_NEAR(TotalGiB(Model("llama3_8b"), 8), 105, 105 * 0.02);
  EXPECT_NEAR(TotalGiB(Model("llama3_70b"), 64), 912, 912 * 0.02);
  EXPECT_NEAR(TotalGiB(Model("llama3_405b"), 512), 5290, 5290 * 0.02);
}

TEST(LlmCheckpoint, CountsParametersAsDlio) {
  EXPECT_EQ(TransformerParameters(Model("llama3_8b")), 8030261248u);
  EXPECT_EQ(TransformerParameters(Model("llama3_70b")), 69882617856u);
}

TEST(LlmCheckpoint, SharesAddUpOverAnySplit) {
  auto m = Model("llama3_8b");
  const double whole = TotalGiB(m, 8);
  for (uint64_t ranks : {1, 2, 4, 8, 16}) EXPECT_NEAR(TotalGiB(m, ranks), whole, 0.01) << ranks;
  m.parallelism.zero_stage = 1;  // only data-parallel rank 0 writes the model states
  const auto s = CheckpointSize(m, 8);
  EXPECT_EQ(RankShard(m, 1, 8).model_bytes, 0u);
  EXPECT_GT(RankShard(m, 1, 8).optimizer_bytes, 0u);
  EXPECT_NEAR(static_cast<double>(s.model_bytes), 2.0 * TransformerParameters(m),
              1e-3 * static_cast<double>(s.model_bytes));
  m.parallelism.zero_stage = 0;  // only the first copy is written
  EXPECT_EQ(CheckpointSize(m, 8).writing_ranks, 1u);
}

TEST(LlmCheckpoint, PipelineStagesSplitTheLayers) {
  auto m = Model("llama3_70b");  // tensor 8
  m.parallelism.pipeline = 4;
  m.parallelism.zero_stage = 3;
  const auto s = CheckpointSize(m, 64);  // data 2
  EXPECT_NEAR(static_cast<double>(s.model_bytes), 2.0 * TransformerParameters(m),
              1e-3 * static_cast<double>(s.model_bytes));
  EXPECT_THROW(CheckpointSize(m, 48), UsageError);  // 48 is no multiple of 8 x 4
}

}  // namespace
}  // namespace trainbench::sim
