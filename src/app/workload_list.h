// `trainbench workloads`' text: the built-in workloads by MLPerf Storage round with their
// headline figures (training, then checkpointing), and the dataset formats. Pure.
#pragma once

#include <string>

namespace trainbench::app {

std::string WorkloadList();

}  // namespace trainbench::app
