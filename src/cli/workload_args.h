// The "WORKLOAD [key=value ...]" arguments that datagen, config, run and datasize share,
// and the loading step they all start with (warnings printed once, on stderr).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "config/workload_yaml.h"

namespace trainbench::cli {

struct WorkloadArgs {
  std::string workload;
  std::vector<std::string> overrides;
  bool quiet_warnings = false;
};

void AddWorkloadArgs(CLI::App& command, WorkloadArgs& args);
config::WorkloadConfig LoadWorkloadOrThrow(const WorkloadArgs& args);

}  // namespace trainbench::cli
