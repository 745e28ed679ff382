// `trainbench workloads`: the built-in workloads and their headline figures, and the
// dataset formats (from formats/' registry).
#include <fmt/format.h>

#include "cli/command.h"
#include "config/builtin_workloads.h"
#include "config/workload_yaml.h"
#include "formats/format.h"

namespace trainbench::cli {

std::string FormatList() {
  std::string out = "Formats (dataset.format; files named .EXTENSION, older spellings read too):\n";
  for (const auto* d : formats::AllFormats()) {
    std::string extensions;
    for (const auto e : d->extensions)
      extensions += fmt::format("{}.{}", extensions.empty() ? "" : " ", e);
    out += fmt::format("  {:<20} {:<26} {}\n", d->name, extensions, d->help);
  }
  return out;
}

void AddWorkloadsCommand(CLI::App& app, Action& action) {
  auto* command =
      app.add_subcommand("workloads", "List the built-in workloads (MLPerf Storage v2.0 figures)");
  command->callback([&action] {
    action = [] {
      fmt::print("{:<16} {:<9} {:>9} {:>8} {:>12} {:>6} {:>10} {:>7} {:>5}\n", "workload", "format",
                 "files", "samples", "sample_bytes", "batch", "compute_s", "epochs", "au");
      for (const auto& b : config::BuiltinWorkloads()) {
        const auto c = config::LoadWorkload(b.name, {}).config;
        fmt::print("{:<16} {:<9} {:>9} {:>8} {:>12.0f} {:>6} {:>10.5g} {:>7} {:>5.2f}\n", b.name,
                   c.dataset.format, c.dataset.num_files_train, c.dataset.num_samples_per_file,
                   c.dataset.record_length_bytes, c.reader.batch_size,
                   c.train.computation_time.Mean(), c.train.epochs, c.metric.au);
      }
      fmt::print(
          "\nA workload can also be a DLIO workload YAML file: trainbench config "
          "path/to/workload.yaml\n");
      fmt::print("\n{}", FormatList());
      return 0;
    };
  });
}

}  // namespace trainbench::cli
