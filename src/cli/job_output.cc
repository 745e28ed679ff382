#include "cli/job_output.h"

#include <fmt/format.h>

#include <cstdio>

#include "common/error.h"
#include "common/log.h"

namespace trainbench::cli {

int ShowJobOutcome(const app::StageJobOutcome& o) {
  std::fflush(stdout);  // after the job's own progress lines
  fmt::print("{}", o.table);
  if (!o.results.folder.empty()) fmt::print("results: {}\n", o.results.folder);
  if (!o.line.empty()) fmt::print("{}\n", o.line);
  std::fflush(stdout);
  if (!o.results.error.empty())
    LogError("the job's results could not be written: " + o.results.error);
  if (o.exit_code == static_cast<int>(ExitCode::kInterrupted)) {
    LogWarning(o.error);
    return o.exit_code;
  }
  if (o.exit_code != 0) {
    LogError(o.error);
    return o.exit_code;
  }
  return o.results.error.empty() ? 0 : static_cast<int>(ExitCode::kRuntime);
}

void ShowJobEnd(const std::string& text, const app::WrittenResults& results,
                const std::string& line, const std::string& done) {
  fmt::print("{}", text);
  if (!results.folder.empty()) fmt::print("results: {}\n", results.folder);
  fmt::print("{}\n", line);
  std::fflush(stdout);
  if (!results.error.empty())
    throw RuntimeError(done + ", but its results could not be written: " + results.error);
}

}  // namespace trainbench::cli
