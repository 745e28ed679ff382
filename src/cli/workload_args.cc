#include "cli/workload_args.h"

#include "app/workload_load.h"

namespace trainbench::cli {

void AddWorkloadArgs(CLI::App& command, WorkloadArgs& args) {
  command
      .add_option("workload", args.workload,
                  "Built-in workload name (see `trainbench workloads`), a DLIO YAML file, or a "
                  "sai3-bench config (docs/sai3-bench.md)")
      ->required();
  command.add_option("overrides", args.overrides,
                     "Config overrides: dataset.num_files_train=16 or DLIO's "
                     "++workload.dataset.num_files_train=16");
  command.add_flag("--no-warnings", args.quiet_warnings,
                   "Do not print warnings about DLIO keys trainbench ignores");
}

config::WorkloadConfig LoadWorkloadOrThrow(const WorkloadArgs& args) {
  return app::LoadCheckedWorkload(args.workload, args.overrides, args.quiet_warnings);
}

}  // namespace trainbench::cli
