// `trainbench datasize WORKLOAD --accelerators N --hosts H --host-memory-gib M`:
// MLPerf Storage's dataset sizing rule, so the page cache cannot hold the dataset. Under
// mpirun the ranks say it themselves: hosts are the ranks' distinct hosts, memory theirs,
// and --accelerators is per rank (as in `run`), summed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "cli/command.h"
#include "cli/validators.h"
#include "cli/workload_args.h"
#include "common/error.h"
#include "common/units.h"
#include "config/datasize.h"
#include "dist/communicator.h"
#include "metrics/process_stats.h"
#include "sim/llm_checkpoint.h"
#include "sim/ranks.h"

namespace trainbench::cli {

namespace {

// "911.17 GiB (978.36 GB)": DLIO and MLPerf's rules compute in 2^30 bytes and print "GB".
std::string BothUnits(uint64_t bytes) {
  const auto b = static_cast<double>(bytes);
  return fmt::format("{:.2f} GiB ({:.2f} GB)", b / kGiB, b / kGB);
}

void PrintCheckpointSize(const config::WorkloadConfig& config, uint64_t n) {
  const auto& m = config.model;
  if (!sim::IsSizedTransformer(m))
    throw UsageError(fmt::format(
        "--checkpoint sizes a transformer: {} sets no model.num_layers and "
        "model.transformer.hidden_size (its checkpoint is model.model_size_bytes = {} bytes for "
        "the model, twice that for the optimizer)",
        config.workload_name, m.model_size_bytes));
  const auto size = sim::CheckpointSize(m, n);
  const uint64_t job = sim::CheckpointJobRanks(m, n);
  const uint64_t dp = job / (m.parallelism.tensor * m.parallelism.pipeline);
  fmt::print("workload         {} ({} layers, hidden {}, ffn {}, vocabulary {})\n",
             config.workload_name, m.num_layers, m.transformer.hidden_size,
             m.transformer.ffn_hidden_size, m.transformer.vocab_size);
  fmt::print("parameters       {} ({:.2f} billion, counted as DLIO counts them)\n", size.parameters,
             static_cast<double>(size.parameters) / 1e9);
  fmt::print("ranks            {}: tensor {} x pipeline {} x data {}{}, ZeRO stage {}; {} write\n",
             n, m.parallelism.tensor, m.parallelism.pipeline, dp,
             m.parallelism.data ? fmt::format(" (a subset: {} of the job's {})", n, job) : "",
             m.parallelism.zero_stage, size.writing_ranks);
  fmt::print("mode             {}\n", config::ToString(config.checkpoint.mode));
  fmt::print("model states     {} in {}\n", BothUnits(size.model_bytes), m.model_datatype);
  fmt::print("optimizer states {} in {} (3 per parameter)\n", BothUnits(size.optimizer_bytes),
             m.optimizer_datatype);
  fmt::print("checkpoint       {}\n", BothUnits(size.model_bytes + size.optimizer_bytes));
  fmt::print("per rank         {} largest, {} smallest\n", BothUnits(size.largest_rank_bytes),
             BothUnits(size.smallest_rank_bytes));
  if (job != n) {
    const auto whole = sim::CheckpointSize(m, job);
    fmt::print("whole job        {} over its {} ranks (these {} write {:.2f}% of it)\n",
               BothUnits(whole.model_bytes + whole.optimizer_bytes), job, n,
               100.0 * static_cast<double>(size.model_bytes + size.optimizer_bytes) /
                   static_cast<double>(whole.model_bytes + whole.optimizer_bytes));
  }
  if (config.checkpoint.mode == config::CheckpointMode::kSubset || m.parallelism.data) {
    const auto issue = sim::SubsetRuleIssue(config, n);
    fmt::print("rules            {}\n",
               issue.empty()
                   ? "MLPerf Storage v3.0's subset: llama3_8b on 8 processes (Rules 4.3.5)"
                   : "not a valid MLPerf subset: " + issue);
  }
}

}  // namespace

void AddDatasizeCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "datasize",
      "How many files the dataset needs: MLPerf Storage's rule, max(500 x batch x accelerators, "
      "5 x hosts x host memory / sample size)");
  static WorkloadArgs args;
  static uint64_t accelerators = 1, hosts = 1;
  static double memory_gib = 0;
  AddWorkloadArgs(*command, args);
  command
      ->add_option("--accelerators,-n", accelerators,
                   "Emulated accelerators in total (under mpirun: per rank, as in run)")
      ->check(AtLeast(1));
  command
      ->add_option("--hosts", hosts,
                   "Hosts running the benchmark (default 1; under mpirun, the ranks' hosts)")
      ->check(AtLeast(1));
  command
      ->add_option("--host-memory-gib", memory_gib,
                   "Memory per host in GiB (default: this host's; under mpirun, the mean of the "
                   "ranks' hosts)")
      ->check(PositiveFinite());
  static bool checkpoint = false;
  static uint64_t checkpoint_ranks = 0;
  command->add_flag("--checkpoint", checkpoint,
                    "Size the workload's checkpoint instead (a transformer: model.num_layers and "
                    "model.transformer), over --ranks; writes nothing");
  command
      ->add_option("--ranks", checkpoint_ranks,
                   "With --checkpoint: the job's ranks (default: tensor x pipeline parallelism, "
                   "or the ranks under mpirun)")
      ->check(AtLeast(1));
  command->callback([&action] {
    action = [] {
      dist::Communicator& ranks = dist::World();
      const auto config = LoadWorkloadOrThrow(args);
      // A checkpointing workload reads no dataset: its size is its checkpoint's.
      if (!checkpoint && !config.workflow.train && ranks.Rank() == 0)
        fmt::print(
            "{} is a checkpointing workload (workflow.train false): it reads no dataset, so "
            "there is none to generate; its checkpoint (as `datasize {} --checkpoint`):\n\n",
            config.workload_name, args.workload);
      if (checkpoint || !config.workflow.train) {
        if (ranks.Rank() != 0) return 0;
        const uint64_t n = checkpoint_ranks   ? checkpoint_ranks
                           : ranks.Size() > 1 ? static_cast<uint64_t>(ranks.Size())
                                              : config.model.parallelism.tensor *
                                                    config.model.parallelism.pipeline;
        PrintCheckpointSize(config, n);
        return 0;
      }
      if (ranks.Size() > 1) {
        const auto layout = sim::ExchangeRankLayout(ranks, accelerators);
        if (ranks.Rank() != 0) return 0;  // rank 0 answers for the job
        accelerators = layout.total_accelerators;
        std::map<std::string, uint64_t> memory;
        for (const auto& rank : layout.ranks) memory[rank.host] = rank.memory_bytes;
        hosts = memory.size();
        double total = 0;
        for (const auto& [host, bytes] : memory) total += static_cast<double>(bytes);
        if (memory_gib <= 0) memory_gib = total / static_cast<double>(hosts) / kGiB;
        fmt::print("ranks            {} on {} host(s), {} accelerators\n", ranks.Size(), hosts,
                   accelerators);
      } else if (memory_gib <= 0) {
        memory_gib = static_cast<double>(metrics::HostMemoryBytes()) / kGiB;
      }
      const auto size = config::ComputeDataSize(config, accelerators, hosts, memory_gib);
      fmt::print("workload         {}\n", config.workload_name);
      fmt::print("rule             samples = max(500 x {} x {}, 5 x {} x {:.2f} GiB / {:.0f} B)\n",
                 config.reader.batch_size, accelerators, hosts, memory_gib,
                 config.dataset.record_length_bytes);
      fmt::print("samples          {}\n", size.samples);
      fmt::print("files            {} ({} samples per file)\n", size.files,
                 config.dataset.num_samples_per_file);
      fmt::print("size             {:.2f} GB ({:.2f} GiB)\n", size.bytes / kGB, size.bytes / kGiB);
      // What a scaled-down run needs for its AU to be a verdict at all.
      const uint64_t au_steps = config::MinStepsForAuVerdict(config);
      const uint64_t per_file = std::max<uint64_t>(1, config.dataset.num_samples_per_file);
      fmt::print(
          "AU verdict       needs {} steps per epoch: at least {} files at batch {} x {} "
          "accelerator(s) (fewer, and AU is marked not meaningful)\n",
          au_steps, (au_steps * config.reader.batch_size * accelerators + per_file - 1) / per_file,
          config.reader.batch_size, accelerators);
      fmt::print(
          "\nGenerate and run with:\n  trainbench datagen {} dataset.num_files_train={}\n"
          "  trainbench run {} dataset.num_files_train={} --accelerators {}\n",
          args.workload, size.files, args.workload, size.files, accelerators);
      return 0;
    };
  });
}

}  // namespace trainbench::cli
