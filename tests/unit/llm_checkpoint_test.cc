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

// DLIO writes ZeRO 1/2 pipeline checkpoints a layer a file from data-parallel rank 0:
// llama3_405b (126 layers, tensor 8, pipeline 32) over 512 ranks. Stage 0 holds the
// embedding and layers 1..4 (126 = 32 x 3 + 30: the first 30 stages take 4), the last stage
// layers 124..126, the lm_head and the final norm.
TEST(LlmCheckpoint, LayersOfAStageAddUpAndOnlyDataRankZeroWritesThem) {
  const auto m = Model("llama3_405b");
  const uint64_t ranks = 512;  // data 2
  const LlmShard first = RankShard(m, 0, ranks);
  EXPECT_EQ(first.first_layer, 0u);
  EXPECT_EQ(first.layer_bytes.size(), 5u);
  const LlmShard last = RankShard(m, 255, ranks);  // stage 31, tensor rank 7
  EXPECT_EQ(last.first_layer, 124u);
  EXPECT_EQ(last.layer_bytes.size(), 5u);  // 124, 125, 126, lm_head, norm
  EXPECT_EQ(last.model_rank, 255u);
  for (const LlmShard& s : {first, last}) {
    uint64_t sum = 0;
    for (const uint64_t b : s.layer_bytes) sum += b;
    EXPECT_EQ(sum, s.model_bytes);
  }
  EXPECT_EQ(RankShard(m, 256, ranks).model_bytes, 0u);  // data-parallel rank 1
  auto zero2 = m;
  zero2.parallelism.zero_stage = 2;
  EXPECT_EQ(RankShard(zero2, 256, ranks).model_bytes, 0u);
  EXPECT_GT(RankShard(zero2, 256, ranks).optimizer_bytes, 0u);
}

}  // namespace
}  // namespace trainbench::sim
