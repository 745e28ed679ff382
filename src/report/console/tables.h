// The console table a run prints at the end (its epochs.csv is the model's: epochs_csv.h).
// Pure, from the record to text. Thread-compatible.
#pragma once

#include <string>

#include "config/workload.h"
#include "metrics/run_record.h"

namespace trainbench::report {

std::string ConsoleTable(const metrics::RunRecord& record, const config::WorkloadConfig& config);

}  // namespace trainbench::report
