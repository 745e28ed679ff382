// `trainbench datasize WORKLOAD --accelerators N --hosts H --host-memory-gib M`: the flags
// of app's DatasizeJob (MLPerf Storage's dataset sizing rule, so the page cache cannot hold
// the dataset; or a transformer's checkpoint) and its answer as a table.
#include <fmt/format.h>

#include "app/datasize_job.h"
#include "app/job_env.h"
#include "cli/command.h"
#include "cli/validators.h"
#include "cli/workload_args.h"
#include "common/units.h"

namespace trainbench::cli {

namespace {

// "911.17 GiB (978.36 GB)": DLIO and MLPerf's rules compute in 2^30 bytes and print "GB".
std::string BothUnits(uint64_t bytes) {
  const auto b = static_cast<double>(bytes);
  return fmt::format("{:.2f} GiB ({:.2f} GB)", b / kGiB, b / kGB);
}

void PrintCheckpointSize(const config::WorkloadConfig& config, const app::CheckpointSizing& s) {
  const auto& m = config.model;
  const auto& size = s.size;
  const uint64_t n = s.ranks;
  fmt::print("workload         {} ({} layers, hidden {}, ffn {}, vocabulary {})\n",
             config.workload_name, m.num_layers, m.transformer.hidden_size,
             m.transformer.ffn_hidden_size, m.transformer.vocab_size);
  fmt::print("parameters       {} ({:.2f} billion, counted as DLIO counts them)\n", size.parameters,
             static_cast<double>(size.parameters) / 1e9);
  fmt::print(
      "ranks            {}: tensor {} x pipeline {} x data {}{}, ZeRO stage {}; {} write\n", n,
      m.parallelism.tensor, m.parallelism.pipeline, s.data_parallel,
      m.parallelism.data ? fmt::format(" (a subset: {} of the job's {})", n, s.job_ranks) : "",
      m.parallelism.zero_stage, size.writing_ranks);
  fmt::print("mode             {}\n", config::ToString(config.checkpoint.mode));
  fmt::print("model states     {} in {}\n", BothUnits(size.model_bytes), m.model_datatype);
  fmt::print("optimizer states {} in {} (3 per parameter)\n", BothUnits(size.optimizer_bytes),
             m.optimizer_datatype);
  fmt::print("checkpoint       {}\n", BothUnits(size.model_bytes + size.optimizer_bytes));
  fmt::print("per rank         {} largest, {} smallest\n", BothUnits(size.largest_rank_bytes),
             BothUnits(size.smallest_rank_bytes));
  if (s.job_ranks != n)
    fmt::print("whole job        {} over its {} ranks (these {} write {:.2f}% of it)\n",
               BothUnits(s.whole.model_bytes + s.whole.optimizer_bytes), s.job_ranks, n,
               100.0 * static_cast<double>(size.model_bytes + size.optimizer_bytes) /
                   static_cast<double>(s.whole.model_bytes + s.whole.optimizer_bytes));
  if (s.subset_rule_applies)
    fmt::print("rules            {}\n",
               s.subset_issue.empty()
                   ? "MLPerf Storage v3.0's subset: llama3_8b on 8 processes (Rules 4.3.5)"
                   : "not a valid MLPerf subset: " + s.subset_issue);
}

void PrintDataSize(const config::WorkloadConfig& config, const std::string& workload,
                   const app::DataSizing& d) {
  if (d.ranks > 1)
    fmt::print("ranks            {} on {} host(s), {} accelerators\n", d.ranks, d.hosts,
               d.accelerators);
  fmt::print("workload         {}\n", config.workload_name);
  fmt::print("rule             samples = max(500 x {} x {}, 5 x {} x {:.2f} GiB / {:.0f} B)\n",
             config.reader.batch_size, d.accelerators, d.hosts, d.host_memory_gib,
             config.dataset.record_length_bytes);
  fmt::print("samples          {}\n", d.size.samples);
  fmt::print("files            {} ({} samples per file)\n", d.size.files,
             config.dataset.num_samples_per_file);
  fmt::print("size             {:.2f} GB ({:.2f} GiB)\n", d.size.bytes / kGB, d.size.bytes / kGiB);
  fmt::print(
      "AU verdict       needs {} steps per epoch: at least {} files at batch {} x {} "
      "accelerator(s) (fewer, and AU is marked not meaningful)\n",
      d.au_steps, d.au_files, config.reader.batch_size, d.accelerators);
  fmt::print(
      "\nGenerate and run with:\n  trainbench datagen {} dataset.num_files_train={}\n"
      "  trainbench run {} dataset.num_files_train={} --accelerators {}\n",
      workload, d.size.files, workload, d.size.files, d.accelerators);
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
      auto env = app::BinaryJobEnv(nullptr);
      app::DatasizeOptions options{
          LoadWorkloadOrThrow(args), accelerators, hosts, memory_gib, checkpoint, checkpoint_ranks};
      const auto result = app::DatasizeJob(options, env);
      if (!result) return 0;  // rank 0 answers for the job
      if (result->checkpointing_workload)
        fmt::print(
            "{} is a checkpointing workload (workflow.train false): it reads no dataset, so "
            "there is none to generate; its checkpoint (as `datasize {} --checkpoint`):\n\n",
            options.config.workload_name, args.workload);
      if (result->checkpoint) PrintCheckpointSize(options.config, *result->checkpoint);
      if (result->data) PrintDataSize(options.config, args.workload, *result->data);
      return 0;
    };
  });
}

}  // namespace trainbench::cli
