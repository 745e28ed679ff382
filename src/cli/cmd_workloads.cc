// `trainbench workloads`: the built-in workloads and their headline figures, and the
// dataset formats (app's WorkloadList).
#include <fmt/format.h>

#include "app/workload_list.h"
#include "cli/command.h"

namespace trainbench::cli {

void AddWorkloadsCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "workloads", "List the built-in workloads, by MLPerf Storage round (v3.0, then v2.0)");
  command->callback([&action] {
    action = [] {
      fmt::print("{}", app::WorkloadList());
      return 0;
    };
  });
}

}  // namespace trainbench::cli
