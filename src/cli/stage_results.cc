#include "cli/stage_results.h"

#include <fmt/format.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/output_path.h"
#include "report/results_folder.h"
#include "report/timeseries_csv.h"

namespace trainbench::cli {

std::map<std::string, std::string> ParseS3Options(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> options;
  for (const auto& kv : pairs) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(
          fmt::format("--s3-option '{}': give KEY=VALUE (storage_options keys, "
                      "e.g. endpoint_url=http://127.0.0.1:7480)",
                      kv));
    options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return options;
}

stage::StageOutcome CheckAndRunStage(const stage::StageOptions& options,
                                     const std::string& dest_flag, const std::string& output,
                                     std::string& started, const std::function<void()>& ready) {
  stage::CheckStageOptions(options);
  CheckWritableFolder(options.dest, dest_flag);
  CheckWritableFolder(output, "--output");
  if (ready) ready();
  InstallInterruptHandler();
  started = UtcStamp();
  return stage::RunStage(options);
}

int ReportStageFailure(const stage::StageOutcome& outcome) {
  if (outcome.exit_code == static_cast<int>(ExitCode::kInterrupted))
    LogWarning(outcome.error);
  else
    LogError(outcome.error);
  return outcome.exit_code;
}

std::string WriteJobResults(const std::string& output, const std::string& command,
                            const std::string& started, nlohmann::json summary,
                            const TimeseriesResult& timeseries) {
  try {
    const std::string folder = report::CreateResultsFolder(output, command, started);
    summary["timeseries_interval_s"] = timeseries.interval_s;
    summary["timeseries_cpu_seconds"] = timeseries.sampler_cpu_s;
    // A stop reason may hold bytes that are not UTF-8 (whatever a server sent): replaced,
    // never a reason to lose the account.
    report::WriteResultFile(
        folder, "summary.json",
        summary.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    if (!timeseries.rows.empty())
      report::WriteResultFile(folder, "timeseries.csv",
                              report::TimeseriesCsv({timeseries.rows}, nullptr));
    fmt::print("results: {}\n", folder);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string WriteAccountResults(const stage::StageAccount& account, const std::string& output,
                                const std::string& started, const TimeseriesResult& timeseries) {
  return WriteJobResults(output, account.command, started, stage::ToJson(account), timeseries);
}

}  // namespace trainbench::cli
