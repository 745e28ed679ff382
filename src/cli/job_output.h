// How a stage, a train and a staged train end on the terminal: the time account's table,
// "results: FOLDER", the final JSON line (last on stdout, what harnesses parse), then why
// the job failed on stderr. Returns the exit code.
#pragma once

#include "app/stage_job.h"

namespace trainbench::cli {

int ShowJobOutcome(const app::StageJobOutcome& outcome);

}  // namespace trainbench::cli
