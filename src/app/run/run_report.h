// The end of a `run` job, shared by RunJob and CheckpointJob: rank 0 gathers the ranks'
// records, merges them and writes the results files; every rank returns its outcome (exit
// status 0, 1, or 130 interrupted; rank 0's with the table and the line). Not thread-safe.
#pragma once

#include <string>

#include "app/frame/job_env.h"
#include "app/frame/job_frame.h"
#include "app/run/run_options.h"
#include "report/rules_checks.h"
#include "sim/ranks.h"

namespace trainbench::app {

// The envelope of a run (or a checkpointing run) started at `started` on the layout's hosts.
report::ResultEnvelope RunEnvelope(const config::WorkloadConfig& config, const std::string& started,
                                   const sim::RankLayout& layout);

// Opens rank 0's results through the frame (the folder named <workload>-<started>, a first
// summary marked not ended) and saves the resolved config in them; returns the folder, ""
// without a sink (the other ranks). Throws IoError naming a folder that takes no file.
std::string OpenRunResults(const config::WorkloadConfig& config, JobFrame& frame);

// Rewrites epochs.csv and summary.json (marked incomplete: the run has not ended) from rank
// 0's record so far, so that a run killed later keeps what it measured; over several ranks
// it is rank 0's own share, and says so (OpenRunResults). Never throws: the run goes on.
void KeepRunSoFar(const config::WorkloadConfig& config, JobFrame& frame,
                  const metrics::RunRecord& so_far);

struct FinishedRun {
  const RunJobOptions& options;
  JobEnv& env;
  const sim::RankLayout& layout;
  const std::string& folder;         // rank 0's results ("" elsewhere)
  JobFrame& frame;                   // its envelope's start, its log and rank 0's results
  const report::RulesReport* rules;  // rank 0's checks of the setup (null elsewhere)
};

RunOutcome ReportRun(const FinishedRun& run, const metrics::RunRecord& mine);

}  // namespace trainbench::app
