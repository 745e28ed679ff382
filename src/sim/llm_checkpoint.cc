#include "sim/llm_checkpoint.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/error.h"

namespace trainbench::sim {
namespace {

struct Layout {
  uint64_t tp, pp, mp, dp;
};

Layout LayoutOf(const config::ModelConfig& m, uint64_t ranks) {
  Layout l{m.parallelism.tensor, m.parallelism.pipeline, 0, 0};
  l.mp = l.tp * l.pp;
  if (l.mp == 0 || ranks % l.mp != 0)
    throw UsageError(fmt::format(
        "{} ranks do not divide into groups of model.parallelism.tensor x pipeline = {} x {}: "
        "run a multiple of {} ranks, or change the parallelism",
        ranks, l.tp, l.pp, l.mp));
  // parallelism.data set: these ranks are a subset of a job of data x tensor x pipeline.
  l.dp = m.parallelism.data > 0 ? m.parallelism.data : ranks / l.mp;
  if (ranks > l.dp * l.mp)
    throw UsageError(fmt::format(
        "{} ranks are more than the job of model.parallelism.data x tensor x pipeline = "
        "{} x {} x {} ranks they are a subset of: run at most {} ranks, or raise "
        "model.parallelism.data",
        ranks, l.dp, l.tp, l.pp, l.dp * l.mp));
  return l;
}

// The parameters of layer `index` held by one tensor rank, split further by `shards`
// (ZeRO 3): 0 the embedding, 1..layers the transformer layers, layers+1 the lm_head,
// layers+2 the final norm.
uint64_t LayerParameters(const config::ModelConfig& m, uint64_t index, uint64_t tp,
                         uint64_t shards) {
  const auto& t = m.transformer;
  const uint64_t h = t.hidden_size;
  if (index == 0 || index == m.num_layers + 1) return h * t.vocab_size / tp / shards;
  if (index == m.num_layers + 2) return h / shards;
  const uint64_t kv = h / t.num_attention_heads * t.num_kv_heads;
  return h / shards                                 // input norm
         + h * (h + 2 * kv) / tp / shards           // q, k, v
         + h * h / tp / shards                      // attention output
         + h / shards                               // post-attention norm
         + h * 2 * t.ffn_hidden_size / tp / shards  // gate and up projections
         + h * t.ffn_hidden_size / tp / shards;     // down projection
}

}  // namespace

bool IsSizedTransformer(const config::ModelConfig& model) {
  return model.num_layers > 0 && model.transformer.hidden_size > 0;
}

uint64_t DatatypeBytes(const std::string& datatype, const std::string& key) {
  if (datatype == "int8" || datatype == "uint8") return 1;
  if (datatype == "fp16" || datatype == "bf16") return 2;
  if (datatype == "fp32") return 4;
  if (datatype == "fp64") return 8;
  throw UsageError(fmt::format(
      "{} '{}' is not a datatype; use fp16, bf16, fp32, fp64, int8 or uint8", key, datatype));
}

uint64_t TransformerParameters(const config::ModelConfig& m) {
  const auto& t = m.transformer;
  if (t.num_attention_heads == 0)
    throw UsageError("model.transformer.num_attention_heads must be set to size the checkpoint");
  const uint64_t h = t.hidden_size;
  const uint64_t kv = h / t.num_attention_heads * t.num_kv_heads;
  const uint64_t layer = h + h * (h + 2 * kv) + h * h + h + 3 * h * t.ffn_hidden_size;
  return 2 * t.vocab_size * h + m.num_layers * layer + h;
}

LlmShard RankShard(const config::ModelConfig& m, uint64_t rank, uint64_t ranks) {
  const Layout l = LayoutOf(m, ranks);
  LlmShard s;
  // Tensor ranks of a stage hold equal shares: only the stage matters.
  const uint64_t pp_rank = (rank / l.tp) % l.pp;
  s.data_rank = rank / l.mp;
  s.model_rank = rank % l.mp;
  const uint64_t zero = m.parallelism.zero_stage;
  // Without ZeRO only the first copy of the model (data-parallel rank 0) is saved.
  if (zero == 0 && rank >= l.mp) return s;

  // ZeRO 1 and 2: the model states are whole on every data-parallel rank; DLIO (as
  // DeepSpeed) saves data-parallel rank 0's.
  if (!((zero == 1 || zero == 2) && s.data_rank != 0)) {
    // This pipeline stage's layers: an even split, the first stages taking the remainder.
    const uint64_t per = m.num_layers / l.pp, extra = m.num_layers % l.pp;
    uint64_t first =
        pp_rank < extra ? pp_rank * (per + 1) + 1 : extra * (per + 1) + (pp_rank - extra) * per + 1;
    uint64_t last = first + per - (pp_rank < extra ? 0 : 1);
    if (pp_rank == 0) first = 0;
    if (pp_rank == l.pp - 1) last = m.num_layers + 2;
    const uint64_t shards = zero >= 3 ? l.dp : 1;
    const uint64_t bytes = DatatypeBytes(m.model_datatype, "model.model_datatype");
    s.first_layer = first;
    for (uint64_t i = first; i <= last; ++i) {
      s.layer_bytes.push_back(LayerParameters(m, i, l.tp, shards) * bytes);
      s.model_bytes += s.layer_bytes.back();
    }
  }
  const uint64_t n = TransformerParameters(m) / (zero > 0 ? l.dp * l.mp : l.mp);
  // Three states per parameter, each with a small per-group extra (DLIO's 5 x hidden).
  s.optimizer_bytes = 3 * (n + 5 * m.transformer.hidden_size) *
                      DatatypeBytes(m.optimizer_datatype, "model.optimizer_datatype");
  return s;
}

LlmCheckpointSize CheckpointSize(const config::ModelConfig& m, uint64_t ranks) {
  LlmCheckpointSize size;
  size.parameters = TransformerParameters(m);
  size.smallest_rank_bytes = UINT64_MAX;
  for (uint64_t r = 0; r < ranks; ++r) {
    const LlmShard s = RankShard(m, r, ranks);
    const uint64_t bytes = s.model_bytes + s.optimizer_bytes;
    size.model_bytes += s.model_bytes;
    size.optimizer_bytes += s.optimizer_bytes;
    if (bytes > 0) ++size.writing_ranks;
    size.largest_rank_bytes = std::max(size.largest_rank_bytes, bytes);
    size.smallest_rank_bytes = std::min(size.smallest_rank_bytes, bytes);
  }
  return size;
}

uint64_t CheckpointJobRanks(const config::ModelConfig& m, uint64_t ranks) {
  const Layout l = LayoutOf(m, ranks);
  return l.dp * l.mp;
}

std::string SubsetRuleIssue(const config::WorkloadConfig& c, uint64_t ranks) {
  if (c.checkpoint.mode != config::CheckpointMode::kSubset && c.model.parallelism.data == 0)
    return "";
  if (c.workload_name != "llama3_8b")
    return fmt::format(
        "MLPerf Storage v3.0 defines subset mode only for llama3_8b (Rules 4.3.5), not {}: its "
        "CLOSED runs write the whole checkpoint",
        c.workload_name);
  if (ranks != 8)
    return fmt::format(
        "MLPerf Storage v3.0's subset mode is llama3_8b on 8 processes (one 8-GPU node, Rules "
        "4.3.5), not {}",
        ranks);
  if (CheckpointJobRanks(c.model, ranks) != 8)
    return fmt::format(
        "MLPerf Storage v3.0's llama3_8b job is 8 ranks (data parallelism 8, Table 2), not {}",
        CheckpointJobRanks(c.model, ranks));
  return "";
}

}  // namespace trainbench::sim
