// How a stage, a train and a staged train end on the terminal: the time account's table,
// "results: FOLDER", the final JSON line (last on stdout, what harnesses parse), then why
// the job failed on stderr. Returns the exit code.
#pragma once

#include <string>

#include "app/job_results.h"
#include "app/stage_job.h"

namespace trainbench::cli {

int ShowJobOutcome(const app::StageJobOutcome& outcome);

// The end of a datagen or a replay on the terminal: its lines, "results: FOLDER", the final
// JSON line. Throws RuntimeError when the results could not be written, saying that `done`
// ("the dataset is written") although they were not.
void ShowJobEnd(const std::string& text, const app::WrittenResults& results,
                const std::string& line, const std::string& done);

}  // namespace trainbench::cli
