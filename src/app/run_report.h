// The end of a `run` job, shared by RunJob and CheckpointJob: rank 0 gathers the ranks'
// records, merges them and writes the results files; every rank returns its outcome (exit
// status 0, 1, or 130 interrupted; rank 0's with the table and the line). Not thread-safe.
#pragma once

#include <string>

#include "app/job_log.h"
#include "app/run_job.h"
#include "report/rules_checks.h"
#include "sim/ranks.h"

namespace trainbench::app {

// Opens rank 0's results (named <workload>-<started>) and saves the resolved config in them;
// "" when `results` is null (the other ranks).
std::string OpenRunResults(const config::WorkloadConfig& config, ResultsSink* results,
                           const std::string& started);

// Rewrites epochs.csv and summary.json (marked incomplete: the run has not ended) from rank
// 0's record so far, so that a run killed later keeps what it measured; over several ranks
// it is rank 0's own share, and says so. Never throws: the run goes on.
void KeepRunSoFar(const config::WorkloadConfig& config, ResultsSink& results,
                  const std::string& started, const sim::RankLayout& layout, int ranks,
                  const metrics::RunRecord& so_far);

struct FinishedRun {
  const RunJobOptions& options;
  JobEnv& env;
  const sim::RankLayout& layout;
  const std::string& folder;  // rank 0's results ("" elsewhere)
  const std::string& started;
  JobLog& log;
  const report::RulesReport* rules;  // rank 0's checks of the setup (null elsewhere)
};

RunOutcome ReportRun(const FinishedRun& run, const metrics::RunRecord& mine);

}  // namespace trainbench::app
