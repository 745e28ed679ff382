// `trainbench workloads`: the built-in workloads and their headline figures, and the
// dataset formats (from formats/' registry).
#include <fmt/format.h>

#include "app/workload_load.h"
#include "cli/command.h"
#include "config/builtin_workloads.h"
#include "config/mlperf_round.h"
#include "config/workload_yaml.h"

namespace trainbench::cli {

namespace {

void PrintTraining(const std::string& round) {
  fmt::print("MLPerf Storage {} training:\n", round);
  fmt::print("  {:<16} {:<9} {:>9} {:>8} {:>12} {:>6} {:>10} {:>7} {:>5}\n", "workload", "format",
             "files", "samples", "sample_bytes", "batch", "compute_s", "epochs", "au");
  for (const auto& b : config::BuiltinWorkloads()) {
    if (config::MlperfRound(b.name) != round) continue;
    const auto c = config::LoadWorkload(b.name, {}).config;
    if (!c.workflow.train) continue;
    fmt::print("  {:<16} {:<9} {:>9} {:>8} {:>12.0f} {:>6} {:>10.5g} {:>7} {:>5.2f}\n", b.name,
               c.dataset.format, c.dataset.num_files_train, c.dataset.num_samples_per_file,
               c.dataset.record_length_bytes, c.reader.batch_size, c.train.computation_time.Mean(),
               c.train.epochs, c.metric.au);
  }
}

void PrintCheckpointing(const std::string& round) {
  fmt::print(
      "MLPerf Storage {} checkpointing (sizes: trainbench datasize WORKLOAD --checkpoint):\n",
      round);
  fmt::print("  {:<16} {:>7} {:>8} {:>7} {:>9} {:>5} {:>9} {:>5} {:>7} {:>6}\n", "workload",
             "layers", "hidden", "tensor", "pipeline", "zero", "datatype", "fsync", "writes",
             "reads");
  for (const auto& b : config::BuiltinWorkloads()) {
    if (config::MlperfRound(b.name) != round) continue;
    const auto c = config::LoadWorkload(b.name, {}).config;
    if (c.workflow.train || !c.workflow.checkpoint) continue;
    const auto& m = c.model;
    fmt::print("  {:<16} {:>7} {:>8} {:>7} {:>9} {:>5} {:>9} {:>5} {:>7} {:>6}\n", b.name,
               m.num_layers, m.transformer.hidden_size, m.parallelism.tensor,
               m.parallelism.pipeline, m.parallelism.zero_stage, m.model_datatype,
               c.checkpoint.fsync ? "yes" : "no", c.checkpoint.num_checkpoints_write,
               c.checkpoint.num_checkpoints_read);
  }
}

}  // namespace

void AddWorkloadsCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "workloads", "List the built-in workloads, by MLPerf Storage round (v3.0, then v2.0)");
  command->callback([&action] {
    action = [] {
      PrintTraining("v3.0");
      fmt::print("\n");
      PrintCheckpointing("v3.0");
      fmt::print("\n");
      PrintTraining("v2.0");
      fmt::print(
          "\nA workload can also be a DLIO workload YAML file: trainbench config "
          "path/to/workload.yaml\n");
      fmt::print("\n{}", app::FormatList());
      return 0;
    };
  });
}

}  // namespace trainbench::cli
