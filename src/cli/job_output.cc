#include "cli/job_output.h"

#include <fmt/format.h>

#include <cstdio>
#include <regex>

#include "common/error.h"
#include "common/log.h"

namespace trainbench::cli {

std::string S3OptionFlagWords(const std::string& text) {
  static const std::regex kKey(R"(storage\.storage_options\.(\w+))");
  static const std::regex kMap(R"(storage\.storage_options\b)");
  return std::regex_replace(std::regex_replace(text, kKey, "--s3-option $1"), kMap, "--s3-option");
}

int WithS3OptionFlag(const std::function<int()>& job) {
  try {
    return job();
  } catch (const Error& e) {
    throw Error(e.code(), S3OptionFlagWords(e.what()));
  }
}

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
