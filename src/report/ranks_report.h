// summary.json's view of a job over several ranks: a row per host (its ranks merged: ranks,
// accelerators, samples/s, MB/s, AU and its minimum, the page cache's share of the reads,
// memory and whether the dataset fits in it) and a row per rank. Hosts may run different
// accelerator counts. Pure; thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "metrics/run_record.h"

namespace trainbench::report {

// `records` and `accelerators` (each rank's own count) in rank order.
nlohmann::json HostRows(const std::vector<metrics::RunRecord>& records,
                        const std::vector<uint64_t>& accelerators);
nlohmann::json RankRows(const std::vector<metrics::RunRecord>& records,
                        const std::vector<uint64_t>& accelerators);

}  // namespace trainbench::report
