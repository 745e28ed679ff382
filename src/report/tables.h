// The human-readable outputs of a run: epochs.csv (one row per phase) and the console
// table printed at the end. Pure functions from the record to text. Thread-compatible.
#pragma once

#include <string>

#include "config/workload.h"
#include "metrics/run_record.h"

namespace trainbench::report {

std::string EpochsCsv(const metrics::RunRecord& record);
std::string ConsoleTable(const metrics::RunRecord& record, const config::WorkloadConfig& config);

}  // namespace trainbench::report
