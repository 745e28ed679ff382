// summary.json and the final JSON line from one RunRecord, in the manner of
// google/benchmark's reporters: pure functions from the record to text. The field
// names follow DLIO's summary.json (train_au_percentage, ...) where DLIO has one, and
// carry their unit otherwise (_bytes, _s, _MB_per_second, _MiB_per_second, _ms).
// Thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "config/workload.h"
#include "metrics/run_record.h"

namespace trainbench::report {

// Everything: run facts, DLIO's metric block, ours, I/O characterization, checkpoints.
nlohmann::json Summary(const metrics::RunRecord& record, const config::WorkloadConfig& config,
                       const std::string& started_utc, const std::string& ended_utc);

// The figures of one host or rank of a job (from its ranks' merged record): samples/s,
// MB/s and AU over the complete train epochs (means of the epochs, as the summary's),
// the lowest accelerator's AU, and how much of what was read came from storage and the page
// cache, by the method that could tell (cache_method; page_cache_fraction null where none could).
nlohmann::json Headline(const metrics::RunRecord& record);

// The object printed as the last stdout line: {"trainbench_metrics": {...}}.
nlohmann::json MetricsLine(const metrics::RunRecord& record, const config::WorkloadConfig& config);

// Whether the run passed: complete, and mean train AU >= metric.au.
bool Passed(const metrics::RunRecord& record, const config::WorkloadConfig& config);

// AU is the share of time accelerators compute; with no computation time (a storage-only
// run, train.computation_time=0) there is none to share, so pass/fail says nothing.
bool AuMeaningful(const config::WorkloadConfig& c);

// Why this run's AU is no verdict ("" when it is one): AuMeaningful fails, or its epochs had
// fewer steps than config::MinStepsForAuVerdict, with what to change.
std::string AuNotMeaningfulReason(const metrics::RunRecord& r, const config::WorkloadConfig& c);

// "passed" in the JSON outputs: true or false, or null when AU is not meaningful.
nlohmann::json PassedJson(const metrics::RunRecord& r, const config::WorkloadConfig& c);

// The dataset fits in page cache (less than 5x host memory, MLPerf's rule): the run
// measures memory, not storage.
bool DatasetFitsInCache(const metrics::RunRecord& record);

}  // namespace trainbench::report
