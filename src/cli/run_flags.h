// The flags `run` and `sweep` share: the workload and its overrides, and how reads are done
// (engine, threads, depth, barrier, caches, time series). Each command adds its own.
#pragma once

#include <CLI/CLI.hpp>

#include "app/run_job.h"
#include "cli/workload_args.h"

namespace trainbench::cli {

struct RunFlags {
  WorkloadArgs workload;
  app::RunJobOptions job;
  bool no_barrier = false;
};

// Adds the flags to `command` (--accelerators too when `with_accelerators`).
void AddRunFlags(CLI::App& command, RunFlags& flags, bool with_accelerators = true);

// The job's options from the flags: checked (UsageError naming the flag), the workload
// loaded, and the datagen command to name when the dataset is missing.
app::RunJobOptions ResolveRunFlags(RunFlags& flags);

}  // namespace trainbench::cli
