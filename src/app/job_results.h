// The results folder of a job that is not a `run` (stage, train, staged train, datagen):
// <output>/<name>-<UTC stamp>/ with summary.json (the envelope, then the kind's figures and
// the time series' interval and cost) and timeseries.csv (when it has rows). A `run` writes
// its own through ResultsSink (run_report.h), with its per-rank files.
// Thread-safe: plain functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/job_report.h"
#include "app/job_timeseries.h"
#include "app/results_sink.h"
#include "dist/communicator.h"
#include "report/result_envelope.h"

namespace trainbench::app {

// The envelope a job opens with: its kind and workload, started now, and its ranks' hosts. A
// collective: every rank calls it before the work, while all are there to answer.
report::ResultEnvelope StartEnvelope(const std::string& kind, const std::string& workload,
                                     dist::Communicator& ranks);

// Writes the folder; never throws: the caller decides whether an unwritten folder fails the
// job, after it has shown what was measured.
WrittenResults WriteJobResults(const std::string& output, const std::string& name,
                               const report::ResultEnvelope& envelope,
                               const nlohmann::ordered_json& figures,
                               const TimeseriesResult& timeseries);

// The final line: the kind's figures, then the envelope's short form as "trainbench" (merged
// into the kind's own "trainbench" object where it has one, as train's line does).
std::string FinalLine(nlohmann::ordered_json line, const report::ResultEnvelope& envelope,
                      const std::string& folder);

}  // namespace trainbench::app
