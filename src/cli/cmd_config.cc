// `trainbench config WORKLOAD [overrides]`: the resolved config as YAML; --keys lists
// every key trainbench knows.
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/shared_flags.h"
#include "common/error.h"
#include "config/schema.h"
#include "config/workload_yaml.h"

namespace trainbench::cli {

void AddConfigCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "config", "Print a workload's resolved config (defaults, file, overrides) as YAML");
  static WorkloadArgs args;
  static bool keys = false;
  AddWorkloadArgs(*command, args, /*required=*/false);
  command->add_flag("--keys", keys,
                    "List every config key trainbench knows, with its expected form");
  command->callback([&action] {
    action = [] {
      if (keys) {
        for (const auto& k : config::Schema())
          fmt::print("{:<42} {}{}\n", k.path, k.expected,
                     k.acted_on ? "" : " (DLIO key, accepted, not acted on)");
        return 0;
      }
      if (args.workload.empty())
        throw UsageError("config needs a WORKLOAD (or --keys); see `trainbench workloads`");
      fmt::print("{}", config::ToYaml(LoadWorkloadOrThrow(args)));
      return 0;
    };
  });
}

}  // namespace trainbench::cli
