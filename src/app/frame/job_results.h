// What every job but `run` shares at its two ends: the envelope it opens with, and its final
// JSON line. Its results folder is ResultsWriter's (results_writer.h).
// Thread-safe: plain functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/frame/job_report.h"
#include "app/frame/job_timeseries.h"
#include "app/frame/results_sink.h"
#include "dist/communicator.h"
#include "report/result_envelope.h"

namespace trainbench::app {

// The envelope a job opens with: its kind and workload, started now, and its ranks' hosts. A
// collective: every rank calls it before the work, while all are there to answer.
report::ResultEnvelope StartEnvelope(const std::string& kind, const std::string& workload,
                                     dist::Communicator& ranks);

// The final line: the kind's figures, then the envelope's short form as "trainbench" (merged
// into the kind's own "trainbench" object where it has one, as train's line does).
std::string FinalLine(nlohmann::ordered_json line, const report::ResultEnvelope& envelope,
                      const std::string& folder);

}  // namespace trainbench::app
