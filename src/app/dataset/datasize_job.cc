#include "app/dataset/datasize_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "app/workload_load.h"
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

// "911.17 GiB (978.36 GB)": DLIO and MLPerf's rules compute in 2^30 bytes and print "GB".
std::string BothUnits(uint64_t bytes) {
  const auto b = static_cast<double>(bytes);
  return fmt::format("{:.2f} GiB ({:.2f} GB)", b / kGiB, b / kGB);
}

std::string CheckpointText(const config::WorkloadConfig& config, const CheckpointSizing& s) {
  const auto& m = config.model;
  const auto& size = s.size;
  const uint64_t n = s.ranks;
  std::string text;
  auto out = std::back_inserter(text);
  fmt::format_to(out, "workload         {} ({} layers, hidden {}, ffn {}, vocabulary {})\n",
                 config.workload_name, m.num_layers, m.transformer.hidden_size,
                 m.transformer.ffn_hidden_size, m.transformer.vocab_size);
  fmt::format_to(out, "parameters       {} ({:.2f} billion, counted as DLIO counts them)\n",
                 size.parameters, static_cast<double>(size.parameters) / 1e9);
  fmt::format_to(
      out, "ranks            {}: tensor {} x pipeline {} x data {}{}, ZeRO stage {}; {} write\n", n,
      m.parallelism.tensor, m.parallelism.pipeline, s.data_parallel,
      m.parallelism.data ? fmt::format(" (a subset: {} of the job's {})", n, s.job_ranks) : "",
      m.parallelism.zero_stage, size.writing_ranks);
  fmt::format_to(out, "mode             {}\n", config::ToString(config.checkpoint.mode));
  fmt::format_to(out, "model states     {} in {}\n", BothUnits(size.model_bytes), m.model_datatype);
  fmt::format_to(out, "optimizer states {} in {} (3 per parameter)\n",
                 BothUnits(size.optimizer_bytes), m.optimizer_datatype);
  fmt::format_to(out, "checkpoint       {}\n", BothUnits(size.model_bytes + size.optimizer_bytes));
  fmt::format_to(out, "per rank         {} largest, {} smallest\n",
                 BothUnits(size.largest_rank_bytes), BothUnits(size.smallest_rank_bytes));
  if (s.job_ranks != n)
    fmt::format_to(out, "whole job        {} over its {} ranks (these {} write {:.2f}% of it)\n",
                   BothUnits(s.whole.model_bytes + s.whole.optimizer_bytes), s.job_ranks, n,
                   100.0 * static_cast<double>(size.model_bytes + size.optimizer_bytes) /
                       static_cast<double>(s.whole.model_bytes + s.whole.optimizer_bytes));
  if (s.subset_rule_applies)
    fmt::format_to(out, "rules            {}\n",
                   s.subset_issue.empty()
                       ? "MLPerf Storage v3.0's subset: llama3_8b on 8 processes (Rules 4.3.5)"
                       : "not a valid MLPerf subset: " + s.subset_issue);
  return text;
}

std::string DataText(const config::WorkloadConfig& config, const std::string& workload,
                     const DataSizing& d) {
  std::string text;
  auto out = std::back_inserter(text);
  if (d.ranks > 1)
    fmt::format_to(out, "ranks            {} on {} host(s), {} accelerators\n", d.ranks, d.hosts,
                   d.accelerators);
  fmt::format_to(out, "workload         {}\n", config.workload_name);
  fmt::format_to(out,
                 "rule             samples = max(500 x {} x {}, 5 x {} x {:.2f} GiB / {:.0f} B)\n",
                 config.reader.batch_size, d.accelerators, d.hosts, d.host_memory_gib,
                 config.dataset.record_length_bytes);
  fmt::format_to(out, "samples          {}\n", d.size.samples);
  fmt::format_to(out, "files            {} ({} samples per file)\n", d.size.files,
                 config.dataset.num_samples_per_file);
  fmt::format_to(out, "size             {:.2f} GB ({:.2f} GiB)\n", d.size.bytes / kGB,
                 d.size.bytes / kGiB);
  fmt::format_to(out,
                 "AU verdict       needs {} steps per epoch: at least {} files at batch {} x {} "
                 "accelerator(s) (fewer, and AU is marked not meaningful)\n",
                 d.au_steps, d.au_files, config.reader.batch_size, d.accelerators);
  const std::vector<std::string> files = {fmt::format("dataset.num_files_train={}", d.size.files)};
  // Under mpirun run's --accelerators is each rank's, as datasize's was: the same launch.
  if (d.ranks > 1)
    fmt::format_to(out,
                   "\nGenerate and run with:\n  {}\n  mpirun -np {} {} --accelerators {}   # {} "
                   "per rank, {} in all\n",
                   TrainbenchCommand("datagen", workload, files), d.ranks,
                   TrainbenchCommand("run", workload, files), d.rank_accelerators,
                   d.rank_accelerators, d.accelerators);
  else
    fmt::format_to(out, "\nGenerate and run with:\n  {}\n  {} --accelerators {}\n",
                   TrainbenchCommand("datagen", workload, files),
                   TrainbenchCommand("run", workload, files), d.accelerators);
  return text;
}

std::string DatasizeText(const DatasizeOptions& options, const DatasizeResult& result) {
  std::string text;
  if (result.checkpointing_workload)
    text = fmt::format(
        "{} is a checkpointing workload (workflow.train false): it reads no dataset, so "
        "there is none to generate; its checkpoint (as `datasize {} --checkpoint`):\n\n",
        options.config.workload_name, options.workload);
  if (result.checkpoint) text += CheckpointText(options.config, *result.checkpoint);
  if (result.data) text += DataText(options.config, options.workload, *result.data);
  return text;
}

}  // namespace

DatasizeResult DatasizeJob(DatasizeOptions options, JobEnv& env) {
  dist::Communicator& ranks = env.ranks;
  const auto& config = options.config;
  DatasizeResult result;
  // A checkpointing workload reads no dataset: its size is its checkpoint's.
  result.checkpointing_workload = !options.checkpoint && !config.workflow.train;
  if (options.checkpoint || !config.workflow.train) {
    if (ranks.Rank() != 0) return {};  // rank 0 answers for the job
    result.reports = true;
    const uint64_t n = options.checkpoint_ranks ? options.checkpoint_ranks
                       : ranks.Size() > 1
                           ? static_cast<uint64_t>(ranks.Size())
                           : config.model.parallelism.tensor * config.model.parallelism.pipeline;
    result.checkpoint = SizeCheckpoint(config, n);
    result.text = DatasizeText(options, result);
    return result;
  }
  DataSizing d;
  d.accelerators = options.accelerators;
  d.rank_accelerators = options.accelerators;
  d.hosts = options.hosts;
  d.host_memory_gib = options.host_memory_gib;
  d.ranks = ranks.Size();
  if (ranks.Size() > 1) {
    const auto layout = sim::ExchangeRankLayout(ranks, options.accelerators);
    if (ranks.Rank() != 0) return {};  // rank 0 answers for the job
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
  result.reports = true;
  result.data = d;
  result.text = DatasizeText(options, result);
  return result;
}

}  // namespace trainbench::app
