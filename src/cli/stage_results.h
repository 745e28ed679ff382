// What `trainbench stage` and `trainbench train --stage-to` share on the CLI side: the
// --s3-option KEY=VALUE list, the checks and the run of one stage, its failure's report,
// and writing a time account's results folder.
// Thread-safe: plain functions.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/job_timeseries.h"
#include "stage/stage_account.h"
#include "stage/stager.h"

namespace trainbench::cli {

// --s3-option KEY=VALUE... as storage_options. Throws UsageError naming a malformed one.
std::map<std::string, std::string> ParseS3Options(const std::vector<std::string>& pairs);

// Checks `options` and that DEST (named `dest_flag` in errors) and `output` are writable
// (UsageError), calls `ready` (when given: what must be there for the job, checked before
// anything is fetched; it throws when it is not), installs the Ctrl-C handler, sets
// `started` to the UTC stamp the results folder is named by, and runs the stage.
stage::StageOutcome CheckAndRunStage(const stage::StageOptions& options,
                                     const std::string& dest_flag, const std::string& output,
                                     std::string& started,
                                     const std::function<void()>& ready = nullptr);

// Logs why a stage failed (a warning when interrupted) and returns its exit code.
int ReportStageFailure(const stage::StageOutcome& outcome);

// Writes <output>/<command>-<started>/summary.json (`summary` with the time series'
// interval and cost) and timeseries.csv (when it has rows), and prints "results: FOLDER" on
// stdout. Returns why it could not (empty when written): the caller decides whether that
// fails the command, after reporting what it measured.
std::string WriteJobResults(const std::string& output, const std::string& command,
                            const std::string& started, nlohmann::json summary,
                            const TimeseriesResult& timeseries);
// WriteJobResults of a stage's (or staged train's) time account (stage::ToJson).
std::string WriteAccountResults(const stage::StageAccount& account, const std::string& output,
                                const std::string& started, const TimeseriesResult& timeseries);

}  // namespace trainbench::cli
