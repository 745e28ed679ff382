#include "app/workload_list.h"

#include <fmt/format.h>

#include <iterator>

#include "app/workload_load.h"
#include "config/builtin_workloads.h"
#include "config/mlperf_round.h"
#include "config/workload_yaml.h"

namespace trainbench::app {
namespace {

void AppendTraining(std::string& text, const std::string& round) {
  auto out = std::back_inserter(text);
  fmt::format_to(out, "MLPerf Storage {} training:\n", round);
  fmt::format_to(out, "  {:<16} {:<9} {:>9} {:>8} {:>12} {:>6} {:>10} {:>7} {:>5}\n", "workload",
                 "format", "files", "samples", "sample_bytes", "batch", "compute_s", "epochs",
                 "au");
  for (const auto& b : config::BuiltinWorkloads()) {
    if (config::MlperfRound(b.name) != round) continue;
    const auto c = config::LoadWorkload(b.name, {}).config;
    if (!c.workflow.train) continue;
    fmt::format_to(out, "  {:<16} {:<9} {:>9} {:>8} {:>12.0f} {:>6} {:>10.5g} {:>7} {:>5.2f}\n",
                   b.name, c.dataset.format, c.dataset.num_files_train,
                   c.dataset.num_samples_per_file, c.dataset.record_length_bytes,
                   c.reader.batch_size, c.train.computation_time.Mean(), c.train.epochs,
                   c.metric.au);
  }
}

void AppendCheckpointing(std::string& text, const std::string& round) {
  auto out = std::back_inserter(text);
  fmt::format_to(
      out, "MLPerf Storage {} checkpointing (sizes: trainbench datasize WORKLOAD --checkpoint):\n",
      round);
  fmt::format_to(out, "  {:<16} {:>7} {:>8} {:>7} {:>9} {:>5} {:>9} {:>5} {:>7} {:>6}\n",
                 "workload", "layers", "hidden", "tensor", "pipeline", "zero", "datatype", "fsync",
                 "writes", "reads");
  for (const auto& b : config::BuiltinWorkloads()) {
    if (config::MlperfRound(b.name) != round) continue;
    const auto c = config::LoadWorkload(b.name, {}).config;
    if (c.workflow.train || !c.workflow.checkpoint) continue;
    const auto& m = c.model;
    fmt::format_to(out, "  {:<16} {:>7} {:>8} {:>7} {:>9} {:>5} {:>9} {:>5} {:>7} {:>6}\n", b.name,
                   m.num_layers, m.transformer.hidden_size, m.parallelism.tensor,
                   m.parallelism.pipeline, m.parallelism.zero_stage, m.model_datatype,
                   c.checkpoint.fsync ? "yes" : "no", c.checkpoint.num_checkpoints_write,
                   c.checkpoint.num_checkpoints_read);
  }
}

}  // namespace

std::string WorkloadList() {
  std::string text;
  AppendTraining(text, "v3.0");
  text += "\n";
  AppendCheckpointing(text, "v3.0");
  text += "\n";
  AppendTraining(text, "v2.0");
  text +=
      "\nA workload can also be a DLIO workload YAML file: trainbench config "
      "path/to/workload.yaml\n\n";
  return text + FormatList();
}

}  // namespace trainbench::app
