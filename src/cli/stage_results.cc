#include "cli/stage_results.h"

#include <fmt/format.h>

#include <atomic>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/output_path.h"
#include "metrics/interval_sampler.h"
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

stage::StageOutcome CheckAndRunStage(stage::StageOptions options, const std::string& dest_flag,
                                     const std::string& output, std::string& started,
                                     StageTimeseries& timeseries) {
  stage::CheckStageOptions(options);
  CheckWritableFolder(options.dest, dest_flag);
  CheckWritableFolder(output, "--output");
  InstallInterruptHandler();
  started = UtcStamp();
  if (timeseries.interval_s <= 0) return stage::RunStage(options);
  stage::StageLive live;
  std::atomic<bool> ended{false};
  options.live = &live;
  // The stage's figures in the run's columns: bytes as MB/s, streams busy as reads in
  // flight; no samples, accelerators or read latencies.
  metrics::IntervalSampler sampler(
      timeseries.interval_s, NowSeconds(), 0,
      [&live, &ended](metrics::IntervalProbe& p) {
        p.now = NowSeconds();
        const bool fetching = live.fetching.load(std::memory_order_relaxed);
        p.phase = ended.load(std::memory_order_relaxed) ? metrics::LivePhase::kDone
                  : fetching                            ? metrics::LivePhase::kStage
                                                        : metrics::LivePhase::kSetup;
        p.bytes = live.bytes.load(std::memory_order_relaxed);
        p.reads_in_flight = live.active.load(std::memory_order_relaxed);
      },
      nullptr);
  stage::StageOutcome outcome = stage::RunStage(options);
  ended.store(true, std::memory_order_relaxed);
  sampler.Stop();
  timeseries.rows = sampler.TakeRows();
  timeseries.sampler_cpu_s = sampler.CpuSeconds();
  return outcome;
}

int ReportStageFailure(const stage::StageOutcome& outcome) {
  if (outcome.exit_code == static_cast<int>(ExitCode::kInterrupted))
    LogWarning(outcome.error);
  else
    LogError(outcome.error);
  return outcome.exit_code;
}

std::string WriteAccountResults(const stage::StageAccount& account, const std::string& output,
                                const std::string& started, const StageTimeseries& timeseries) {
  try {
    const std::string folder = report::CreateResultsFolder(output, account.command, started);
    nlohmann::json summary = stage::ToJson(account);
    summary["timeseries_interval_s"] = timeseries.interval_s;
    summary["timeseries_cpu_seconds"] = timeseries.sampler_cpu_s;
    report::WriteResultFile(folder, "summary.json", summary.dump(2) + "\n");
    if (!timeseries.rows.empty())
      report::WriteResultFile(folder, "timeseries.csv",
                              report::TimeseriesCsv({timeseries.rows}, nullptr));
    fmt::print("results: {}\n", folder);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace trainbench::cli
