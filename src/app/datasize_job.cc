#include "app/datasize_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/error.h"
#include "common/units.h"
#include "metrics/process_stats.h"
#include "sim/ranks.h"

namespace trainbench::app {
namespace {

CheckpointSizing SizeCheckpoint(const config::WorkloadConfig& config, uint64_t n) {
  const auto& m = config.model;
  if (!sim::IsSizedTransformer(m))
    throw UsageError(fmt::format(
        "--checkpoint sizes a transformer: {} sets no model.num_layers and "
        "model.transformer.hidden_size (its checkpoint is model.model_size_bytes = {} bytes for "
        "the model, twice that for the optimizer)",
        config.workload_name, m.model_size_bytes));
  CheckpointSizing s;
  s.ranks = n;
  s.size = sim::CheckpointSize(m, n);
  s.job_ranks = sim::CheckpointJobRanks(m, n);
  s.data_parallel = s.job_ranks / (m.parallelism.tensor * m.parallelism.pipeline);
  s.whole = s.job_ranks != n ? sim::CheckpointSize(m, s.job_ranks) : s.size;
  s.subset_rule_applies =
      config.checkpoint.mode == config::CheckpointMode::kSubset || m.parallelism.data;
  if (s.subset_rule_applies) s.subset_issue = sim::SubsetRuleIssue(config, n);
  return s;
}

}  // namespace

std::optional<DatasizeResult> DatasizeJob(DatasizeOptions options, JobEnv& env) {
  dist::Communicator& ranks = env.ranks;
  const auto& config = options.config;
  DatasizeResult result;
  // A checkpointing workload reads no dataset: its size is its checkpoint's.
  result.checkpointing_workload = !options.checkpoint && !config.workflow.train;
  if (options.checkpoint || !config.workflow.train) {
    if (ranks.Rank() != 0) return std::nullopt;
    const uint64_t n = options.checkpoint_ranks ? options.checkpoint_ranks
                       : ranks.Size() > 1
                           ? static_cast<uint64_t>(ranks.Size())
                           : config.model.parallelism.tensor * config.model.parallelism.pipeline;
    result.checkpoint = SizeCheckpoint(config, n);
    return result;
  }
  DataSizing d;
  d.accelerators = options.accelerators;
  d.hosts = options.hosts;
  d.host_memory_gib = options.host_memory_gib;
  d.ranks = ranks.Size();
  if (ranks.Size() > 1) {
    const auto layout = sim::ExchangeRankLayout(ranks, options.accelerators);
    if (ranks.Rank() != 0) return std::nullopt;  // rank 0 answers for the job
    d.accelerators = layout.total_accelerators;
    std::map<std::string, uint64_t> memory;
    for (const auto& rank : layout.ranks) memory[rank.host] = rank.memory_bytes;
    d.hosts = memory.size();
    double total = 0;
    for (const auto& [host, bytes] : memory) total += static_cast<double>(bytes);
    if (d.host_memory_gib <= 0) d.host_memory_gib = total / static_cast<double>(d.hosts) / kGiB;
  } else if (d.host_memory_gib <= 0) {
    d.host_memory_gib = static_cast<double>(metrics::HostMemoryBytes()) / kGiB;
  }
  d.size = config::ComputeDataSize(config, d.accelerators, d.hosts, d.host_memory_gib);
  // What a scaled-down run needs for its AU to be a verdict at all.
  d.au_steps = config::MinStepsForAuVerdict(config);
  const uint64_t per_file = std::max<uint64_t>(1, config.dataset.num_samples_per_file);
  d.au_files = (d.au_steps * config.reader.batch_size * d.accelerators + per_file - 1) / per_file;
  result.data = d;
  return result;
}

}  // namespace trainbench::app
