// The checkpoint of a transformer as MLPerf Storage's LLM workloads (llama3 8B to 1T) write
// it, sized from the model's shape the way DLIO computes it, so both benchmarks write the
// same bytes: parameters from layers, hidden, ffn (a gated MLP: three matrices), vocabulary
// (embedding and lm_head), attention and key/value heads; the model's states in
// model_datatype; the optimizer's in optimizer_datatype, three states per parameter (Adam:
// master weights and two moments). Over the ranks: tensor x pipeline ranks split the layers
// (a pipeline stage holds its layers, the first also the embedding, the last the lm_head and
// final norm; tensor ranks split the matrices); ZeRO stage 3 also splits the model's states
// over data-parallel ranks, stages >= 1 the optimizer's; with stages 1 and 2 only
// data-parallel rank 0 writes the model states, with stage 0 only the first tensor x pipeline ranks
// write anything. Pure arithmetic; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/workload.h"

namespace trainbench::sim {

// Whether the config describes a transformer to size (model.num_layers and
// model.transformer.hidden_size set) rather than a model_size_bytes blob.
bool IsSizedTransformer(const config::ModelConfig& model);

// DLIO's parameter count of the transformer.
uint64_t TransformerParameters(const config::ModelConfig& model);

// Bytes of one element of "fp16", "bf16", "fp32", "fp64", "int8", "uint8"; UsageError
// naming `key` otherwise.
uint64_t DatatypeBytes(const std::string& datatype, const std::string& key);

struct LlmShard {
  uint64_t model_bytes = 0;                // this rank's model states (0: it writes none)
  uint64_t optimizer_bytes = 0;            // this rank's optimizer states
  uint64_t data_rank = 0, model_rank = 0;  // DLIO's file names: zero_pp_rank_D_mp_rank_M
  // The model states by layer (they add up to model_bytes): layer first_layer + i has
  // layer_bytes[i]; DLIO writes a file per layer with ZeRO 1 or 2 and pipeline > 1.
  uint64_t first_layer = 0;
  std::vector<uint64_t> layer_bytes;
};

// Rank `rank` of `ranks`. UsageError when the ranks do not divide into tensor x pipeline
// groups (naming the keys).
LlmShard RankShard(const config::ModelConfig& model, uint64_t rank, uint64_t ranks);

struct LlmCheckpointSize {
  uint64_t parameters = 0;
  uint64_t model_bytes = 0;                                  // over all ranks
  uint64_t optimizer_bytes = 0;                              // over all ranks
  uint64_t largest_rank_bytes = 0, smallest_rank_bytes = 0;  // model + optimizer of one rank
  uint64_t writing_ranks = 0;
};

LlmCheckpointSize CheckpointSize(const config::ModelConfig& model, uint64_t ranks);

// The ranks of the job whose checkpoint `ranks` ranks write their shards of: themselves, or
// with model.parallelism.data set (checkpoint.mode subset), data x tensor x pipeline.
uint64_t CheckpointJobRanks(const config::ModelConfig& model, uint64_t ranks);

// Whether a run of `ranks` ranks is MLPerf Storage v3.0's subset (Rules 4.3.5: llama3 8B on
// 8 processes, one 8-GPU node); the reason it is not otherwise. Only for subset runs
// (checkpoint.mode subset or model.parallelism.data set): "" for the others.
std::string SubsetRuleIssue(const config::WorkloadConfig& config, uint64_t ranks);

}  // namespace trainbench::sim
