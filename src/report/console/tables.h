// The console table a run prints at the end (its epochs.csv is the model's: epochs_csv.h).
// Pure, from the record to text. Thread-compatible.
#pragma once

#include <map>
#include <string>

#include "config/workload.h"
#include "metrics/run_record.h"

namespace trainbench::report {

std::string ConsoleTable(const metrics::RunRecord& record, const config::WorkloadConfig& config);

// "S3: N requests, M retried; ... lost to retries" from a storage's counters (Storage::Counters)
// and the request-seconds its requests took; "" when the storage is not S3.
std::string S3CountersLine(const std::map<std::string, double>& counters, double request_s);

}  // namespace trainbench::report
