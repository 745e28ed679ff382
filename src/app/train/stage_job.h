// `trainbench stage`'s job: checks the options and that DEST and the results' folder can be
// written (UsageError before any work), installs the Ctrl-C handler, stages SOURCE into
// DEST (stage::RunStage) while sampling its time series, and writes the results folder
// <output>/stage-<UTC stamp>/. Also the campaign table of many jobs' folders
// (`stage --report`). Not thread-safe: one per process (the interrupt handler).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/frame/job_frame.h"
#include "app/frame/job_report.h"
#include "app/frame/job_results.h"
#include "stage/stager.h"

namespace trainbench::app {

struct StageJobOptions {
  stage::StageOptions stage;  // its `live` is set by the job
  std::string output = "./results";
  double interval_s = 1;  // per time-series row; 0: none
  // --op-log FILE: every request (HEADs, each ranged GET's attempt) in sai3-bench's op-log
  // TSV (app/frame/job_op_log.h); "": none.
  std::string op_log;
};

// What a stage (or a staged train) shows when it ends, in this order: the time account's
// table, the results folder, the final line.
// text: the time account; line: {"trainbench_stage": {...}, "trainbench": {...}}; exit_code 1
// (failed: `error` says why) or 130 (interrupted).
using StageJobOutcome = JobReport;

// The envelope of a stage (or staged train) starting, from its time account's source and
// start; `kind` stage or staged_train.
report::ResultEnvelope StageEnvelope(const stage::StageAccount& account,
                                     const stage::StageOptions& options, const std::string& kind);
// How a stage ended, from its time account: its end, complete or not, and why.
JobEnding StageEnding(const stage::StageAccount& account);
// Each time-series row's elapsed time into the summary as the wall time so far (with
// `began`'s figures): a stage killed then is counted by `stage --report` with it.
std::function<void(const metrics::TimeseriesRow&)> WallTimeSoFar(
    JobFrame& frame, const nlohmann::ordered_json& began);

// Checks the options, DEST (named `dest_flag` in errors) and `output`, calls `ready` (when
// given: what must be there for the job, checked before anything is fetched; it throws when
// it is not), installs the Ctrl-C handler and runs the stage.
stage::StageOutcome CheckAndRunStage(const stage::StageOptions& options,
                                     const std::string& dest_flag, const std::string& output,
                                     const std::function<void()>& ready = nullptr);

StageJobOutcome StageJob(StageJobOptions options);

// The campaign table (text) and line ({"trainbench_campaign": {...}}) of many stage and
// staged-train results folders.
JobReport StageCampaign(const std::vector<std::string>& folders);

}  // namespace trainbench::app
