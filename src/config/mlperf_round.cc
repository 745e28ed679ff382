#include "config/mlperf_round.h"

namespace trainbench::config {

std::string MlperfRound(const std::string& workload) {
  for (const std::string suffix : {"_b200", "_mi355"})
    if (workload.size() > suffix.size() && workload.ends_with(suffix)) return "v3.0";
  if (workload.starts_with("llama3_")) return "v3.0";
  return "v2.0";
}

}  // namespace trainbench::config
