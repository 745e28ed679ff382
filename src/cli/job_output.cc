#include "cli/job_output.h"

#include <fmt/format.h>

#include <cstdio>

#include "common/error.h"
#include "common/log.h"

namespace trainbench::cli {

int ShowJobReport(const app::JobReport& report) {
  if (!report.reports) return report.exit_code;  // another rank shows the job's end
  std::fflush(stdout);                           // after the job's own progress lines
  fmt::print("{}", report.text);
  if (!report.results.folder.empty()) fmt::print("results: {}\n", report.results.folder);
  if (!report.line.empty()) fmt::print("{}\n", report.line);
  std::fflush(stdout);
  if (!report.results.error.empty())
    LogError("the job's results could not be written: " + report.results.error);
  if (!report.error.empty()) {
    if (report.exit_code == static_cast<int>(ExitCode::kInterrupted))
      LogWarning(report.error);
    else
      LogError(report.error);
  }
  if (report.exit_code != 0) return report.exit_code;
  return report.results.error.empty() ? 0 : static_cast<int>(ExitCode::kRuntime);
}

}  // namespace trainbench::cli
