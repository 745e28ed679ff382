// The MLPerf Storage round a built-in workload's figures come from.
#pragma once

#include <string>

namespace trainbench::config {

// "v3.0" for the workloads that round emulates (b200 and mi355 accelerators) and adds (the
// llama3 checkpointing workloads); "v2.0" for the h100, a100 and v100 ones, whose figures
// are that round's.
std::string MlperfRound(const std::string& workload);

}  // namespace trainbench::config
