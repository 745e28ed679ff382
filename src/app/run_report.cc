#include "app/run_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "app/job_results.h"
#include "app/results_writer.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "config/workload_yaml.h"
#include "metrics/run_record_merge.h"
#include "report/ranks_report.h"
#include "report/result_envelope.h"
#include "report/summary.h"
#include "report/tables.h"
#include "report/timeseries_csv.h"

namespace trainbench::app {
namespace {

std::vector<uint64_t> AcceleratorCounts(const sim::RankLayout& layout, size_t records) {
  std::vector<uint64_t> counts;
  for (const auto& rank : layout.ranks) counts.push_back(rank.accelerators);
  counts.resize(records);
  return counts;
}

report::ResultEnvelope RunEnvelope(const config::WorkloadConfig& config, const std::string& started,
                                   const sim::RankLayout& layout) {
  report::ResultEnvelope envelope;
  envelope.kind = config.workflow.train ? "run" : "checkpoint";
  envelope.workload = config.workload_name;
  envelope.started = started;
  envelope.host_names = sim::Hosts(layout);
  envelope.config = config::ToJson(config);
  return envelope;
}

}  // namespace

void KeepRunSoFar(const config::WorkloadConfig& config, ResultsSink& results,
                  const std::string& started, const sim::RankLayout& layout, int ranks,
                  const metrics::RunRecord& so_far) {
  try {
    report::ResultEnvelope envelope = RunEnvelope(config, started, layout);
    envelope.stop_reason =
        ranks > 1 ? fmt::format("{} (rank 0's share of {} ranks)", kNotEndedReason, ranks)
                  : std::string(kNotEndedReason);
    results.WriteFile("epochs.csv", report::EpochsCsv(so_far));
    results.WriteFile(
        "summary.json",
        report::WithEnvelope(envelope, report::Summary(so_far, config, started, UtcStamp()))
                .dump(2) +
            "\n");
  } catch (const std::exception&) {
    // The end writes them again and reports what it could not write.
  }
}

std::string OpenRunResults(const config::WorkloadConfig& config, ResultsSink* results,
                           const std::string& started) {
  if (!results) return "";
  const std::string folder = results->Open(config.workload_name, started);
  results->WriteFile("config.yaml", config::ToYaml(config));
  return folder;
}

int ReportRun(const FinishedRun& run, const metrics::RunRecord& mine) {
  const auto& [options, env, layout, folder, started, log, rules] = run;
  const auto& config = options.config;
  dist::Communicator& ranks = env.ranks;
  const bool lead = ranks.Rank() == 0;
  // A signal to rank 0 under several ranks is mpirun ending the job (Ctrl-C, or a rank
  // that died): the others may be gone, so rank 0 keeps its own measurements rather than
  // wait for theirs, and ends the job once they are written.
  const bool job_ending = lead && ranks.Size() > 1 && InterruptRequested();
  const auto records = job_ending ? std::vector{mine} : sim::GatherRecords(ranks, mine);
  if (!lead) {
    if (!mine.complete && !mine.stopped_by_peer) LogWarning("stopped: " + mine.stop_reason);
    return mine.complete ? 0 : mine.stop_reason == "interrupted" ? 130 : 1;
  }
  const auto record = metrics::MergeRanks(records);
  const auto counts = AcceleratorCounts(layout, records.size());

  const std::string finished = UtcStamp();
  auto summary = report::Summary(record, config, started, finished);
  summary["cache"]["dropped_before_run"] = options.drop_caches;
  if (rules) summary.update(rules->summary);
  if (ranks.Size() > 1) {
    summary["hosts"] = report::HostRows(records, counts);
    summary["ranks"] = report::RankRows(records, counts);
    if (job_ending) {
      summary["ranks_missing"] = ranks.Size() - 1;
      log.Warn(fmt::format(
          "the job is ending (a signal): these results hold rank 0's measurements only, not "
          "the other {} ranks'",
          ranks.Size() - 1));
    }
  }
  report::ResultEnvelope envelope = RunEnvelope(config, started, layout);
  envelope.finished = finished;
  envelope.complete = record.complete;
  envelope.stop_reason = record.stop_reason;
  // Shown first: a results file that cannot be written (a full disk) must not take the
  // table and the JSON line along. Each file is written whole or not at all, and the
  // summary lists those that could not be written.
  if (env.show) {
    JobReport shown;
    shown.reports = true;
    shown.text = report::ConsoleTable(record, config) + (rules ? rules->table : "");
    shown.results.folder = folder;
    // The kind's figures first, as before the envelope, so a reader matching the line's
    // start still finds it.
    shown.line = FinalLine(report::MetricsLine(record, config), envelope, folder);
    env.show({shown, record, config, summary, envelope});
  }
  std::vector<std::string> unwritten;
  auto write = [&](const std::string& name, const std::string& text) {
    if (!env.results) return;
    try {
      env.results->WriteFile(name, text);
    } catch (const std::exception& e) {
      unwritten.push_back(name);
      log.Warn(fmt::format("could not write {}: {}", name, e.what()));
    }
  };
  write("epochs.csv", report::EpochsCsv(record));
  if (options.interval_s > 0) {
    std::vector<std::vector<metrics::TimeseriesRow>> rows;
    for (const auto& r : records) rows.push_back(r.timeseries);
    std::vector<metrics::TimeseriesRow> merged;
    if (records.size() > 1) merged = metrics::MergeRankRows(rows, counts);
    write("timeseries.csv", report::TimeseriesCsv(rows, records.size() > 1 ? &merged : nullptr));
  }
  if (ranks.Size() > 1)  // each rank as it measured itself
    for (size_t r = 0; r < records.size(); ++r)
      write(fmt::format("rank-{:04}.json", r),
            report::Summary(records[r], config, started, UtcStamp()).dump(2) + "\n");
  if (!unwritten.empty()) summary["unwritten_files"] = unwritten;
  write("summary.json", report::WithEnvelope(envelope, summary).dump(2) + "\n");
  if (!unwritten.empty())
    throw RuntimeError(fmt::format("results incomplete: could not write {} in {}",
                                   fmt::join(unwritten, ", "), folder));
  if (record.complete) {
    const auto& au = summary["metric"]["train_au_mean_percentage"];
    if (!config.workflow.train)
      log.Info("run complete: checkpoints written and read");
    else
      log.Info(fmt::format(
          "run complete: AU {:.2f}%, {}", au.is_number() ? au.get<double>() : 0.0,
          summary["passed"].is_null()
              ? "AU not meaningful: " + summary["au_not_meaningful_reason"].get<std::string>()
          : summary["passed"].get<bool>() ? std::string("passed")
                                          : std::string("failed")));
    return 0;
  }
  if (record.stop_reason == "interrupted") {
    log.Warn("interrupted: partial results (marked incomplete) in " + folder);
    // The other ranks did not hand over their records and may wait for rank 0: end them.
    if (job_ending) dist::AbortJob(static_cast<int>(ExitCode::kInterrupted));
    return 130;
  }
  log.Line("error: " + record.stop_reason);
  // Not thrown: under several ranks an exception ends the job at once (dist::AbortJob).
  LogError(record.stop_reason + "; partial results (marked incomplete) in " + folder);
  return static_cast<int>(ExitCode::kRuntime);
}

}  // namespace trainbench::app
