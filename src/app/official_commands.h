// The command lines that would confirm a sweep's answer officially: MLPerf Storage results
// come from DLIO through `mlpstorage`, so with N* accelerators found, the `mlpstorage
// training datasize / datagen / run` lines (hosts, accelerator type, memory, the dataset's
// file count as MLPerf's rule sizes it for N*) and the plain DLIO `mpirun ... dlio_benchmark`
// line. The accelerator type is the workload name's suffix (resnet50_h100: h100). Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/datasize.h"
#include "config/workload.h"

namespace trainbench::app {

struct OfficialCommands {
  config::DataSize size;  // MLPerf's dataset size for the accelerators and hosts
  std::string datasize, datagen, run, dlio;
};

OfficialCommands OfficialCommandsFor(const config::WorkloadConfig& config, uint64_t accelerators,
                                     const std::vector<std::string>& hosts, double host_memory_gib);

}  // namespace trainbench::app
