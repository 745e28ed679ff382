#include "cli/workload_args.h"

#include "common/log.h"
#include "formats/format.h"

namespace trainbench::cli {

void AddWorkloadArgs(CLI::App& command, WorkloadArgs& args) {
  command
      .add_option("workload", args.workload,
                  "Built-in workload name (see `trainbench workloads`) or a DLIO YAML file")
      ->required();
  command.add_option("overrides", args.overrides,
                     "Config overrides: dataset.num_files_train=16 or DLIO's "
                     "++workload.dataset.num_files_train=16");
  command.add_flag("--no-warnings", args.quiet_warnings,
                   "Do not print warnings about DLIO keys trainbench ignores");
}

config::WorkloadConfig LoadWorkloadOrThrow(const WorkloadArgs& args) {
  auto loaded = config::LoadWorkload(args.workload, args.overrides);
  // config/ cannot see formats/: an unknown dataset.format, or a key its format refuses, is
  // refused here, before any command works (UsageError: exit 2).
  formats::CheckFormat(loaded.config);
  if (!args.quiet_warnings)
    for (const auto& w : loaded.warnings) LogWarning(w);
  return std::move(loaded.config);
}

}  // namespace trainbench::cli
