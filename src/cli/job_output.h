// How every job ends on the terminal (app::JobReport): its text, "results: FOLDER", the final
// JSON line (last on stdout, what harnesses parse), then on stderr why it failed or why its
// results could not be written. Returns the exit code.
#pragma once

#include "app/job_report.h"

namespace trainbench::cli {

int ShowJobReport(const app::JobReport& report);

}  // namespace trainbench::cli
