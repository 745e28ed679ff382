#include "app/run/run_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "app/frame/job_results.h"
#include "app/frame/results_writer.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "config/workload_yaml.h"
#include "metrics/run_record_json.h"
#include "metrics/run_record_merge.h"
#include "report/console/tables.h"
#include "report/epochs_csv.h"
#include "report/ranks_report.h"
#include "report/result_envelope.h"
#include "report/summary.h"
#include "report/timeseries_csv.h"

namespace trainbench::app {
namespace {

std::vector<uint64_t> AcceleratorCounts(const sim::RankLayout& layout, size_t records) {
  std::vector<uint64_t> counts;
  for (const auto& rank : layout.ranks) counts.push_back(rank.accelerators);
  counts.resize(records);
  return counts;
}

}  // namespace

report::ResultEnvelope RunEnvelope(const config::WorkloadConfig& config, const std::string& started,
                                   const sim::RankLayout& layout) {
  return report::NewEnvelope(config.workflow.train ? "run" : "checkpoint", config.workload_name,
                             sim::Hosts(layout), config::ToJson(config), started);
}

void KeepRunSoFar(const config::WorkloadConfig& config, JobFrame& frame,
                  const metrics::RunRecord& so_far) {
  ResultsWriter& writer = frame.writer();
  // Neither throws: a file that could not be written is counted while its last write failed,
  // and the end writes both again and names what it could not write.
  writer.File("epochs.csv", report::EpochsCsv(so_far));
  // Until the run ends its record is not complete, whatever its epochs so far say: no
  // verdict (passed null) is what a killed run leaves.
  metrics::RunRecord not_ended = so_far;
  not_ended.complete = false;
  writer.Update(report::Summary(not_ended, config, frame.envelope().started, UtcStamp()));
}

std::string OpenRunResults(const config::WorkloadConfig& config, JobFrame& frame) {
  const int ranks = frame.ranks().Size();
  if (ranks > 1)
    frame.writer().SetNotEndedReason(
        fmt::format("{} (rank 0's share of {} ranks)", kNotEndedReason, ranks));
  metrics::RunRecord none;
  none.complete = false;
  frame.Begin(config.workload_name,
              report::Summary(none, config, frame.envelope().started, UtcStamp()));
  frame.writer().File("config.yaml", config::ToYaml(config));
  return frame.folder();
}

namespace {

// Rank 0's summary of the merged record, with the setup's checks and, over several ranks,
// each host's and rank's rows.
nlohmann::json RunSummary(const FinishedRun& run, const std::vector<metrics::RunRecord>& records,
                          const metrics::RunRecord& record, const std::string& finished,
                          bool job_ending) {
  const auto& options = run.options;
  const int size = run.env.ranks.Size();
  auto summary = report::Summary(record, options.config, run.frame.envelope().started, finished);
  summary["cache"]["dropped_before_run"] = options.drop_caches;
  if (run.rules) summary.update(run.rules->summary);
  if (size > 1) {
    const auto counts = AcceleratorCounts(run.layout, records.size());
    summary["hosts"] = report::HostRows(records, counts);
    summary["ranks"] = report::RankRows(records, counts);
    if (job_ending) {
      summary["ranks_missing"] = size - 1;
      run.frame.log().Warn(fmt::format(
          "the job is ending (a signal): these results hold rank 0's measurements only, not "
          "the other {} ranks'",
          size - 1));
    }
  }
  return summary;
}

// Writes the run's files but the summary through the writer, each whole or not at all; one
// that could not be written is named here and counted by the writer.
void WriteRunFiles(const FinishedRun& run, const std::vector<metrics::RunRecord>& records,
                   const metrics::RunRecord& record,
                   const std::vector<metrics::TimeseriesRow>& merged) {
  const auto& config = run.options.config;
  auto write = [&](const std::string& name, const std::string& text) {
    if (const std::string error = run.frame.writer().File(name, text); !error.empty())
      run.frame.log().Warn(fmt::format("could not write {}: {}", name, error));
  };
  write("epochs.csv", report::EpochsCsv(record));
  if (run.options.interval_s > 0) {
    std::vector<std::vector<metrics::TimeseriesRow>> rows;
    for (const auto& r : records) rows.push_back(r.timeseries);
    write("timeseries.csv", report::TimeseriesCsv(rows, records.size() > 1 ? &merged : nullptr));
  }
  if (run.env.ranks.Size() > 1)  // each rank as it measured itself
    for (size_t r = 0; r < records.size(); ++r)
      write(fmt::format("rank-{:04}.json", r),
            report::Summary(records[r], config, run.frame.envelope().started, UtcStamp()).dump(2) +
                "\n");
}

// What a complete checkpointing run did, in words: what it wrote, what it read and whose.
std::string CheckpointRunWords(const metrics::RunRecord& record,
                               const config::WorkloadConfig& config) {
  size_t written = 0, read = 0;
  for (const auto& k : record.checkpoints) (k.operation == "write" ? written : read) += 1;
  if (config.checkpoint.num_checkpoints_write == 0)
    return fmt::format("{} checkpoint(s) read that an earlier job wrote, none written", read);
  if (read == 0) return fmt::format("{} checkpoint(s) written, none read back", written);
  return fmt::format("{} checkpoint(s) written, the last {} read back", written, read);
}

// The job's owner stopped it (a mix's job that runs while the others do): it ended as asked,
// by its own stop or by another rank's notice of the same ("rank 1 (host): <reason>").
bool EndedAsAsked(const metrics::RunRecord& record) {
  return !record.complete && ThreadStopRequested() &&
         record.stop_reason.find(InterruptReason()) != std::string::npos;
}

// The exit status and the last words: complete (0), ended as its owner asked (0), interrupted
// (130), or stopped (1).
void EndRun(const FinishedRun& run, bool job_ending, RunOutcome& out) {
  const auto& record = out.record;
  if (record.complete) {
    const auto& au = out.summary["metric"]["train_au_mean_percentage"];
    if (!run.options.config.workflow.train)
      run.frame.log().Info("run complete: " + CheckpointRunWords(record, run.options.config));
    else
      run.frame.log().Info(fmt::format(
          "run complete: AU {:.2f}%, {}", au.is_number() ? au.get<double>() : 0.0,
          out.summary["passed"].is_null()
              ? "AU not meaningful: " + out.summary["au_not_meaningful_reason"].get<std::string>()
          : out.summary["passed"].get<bool>() ? std::string("passed")
                                              : std::string("failed")));
    return;
  }
  if (EndedAsAsked(record)) {
    run.frame.log().Info("run ended: " + record.stop_reason);
    return;
  }
  if (record.stop_reason == "interrupted") {
    run.frame.log().Warn("interrupted: partial results (marked incomplete) in " + run.folder);
    out.exit_code = static_cast<int>(ExitCode::kInterrupted);
    // The other ranks did not hand over their records and may wait for rank 0.
    out.end_job = job_ending;
    return;
  }
  run.frame.log().Line("error: " + record.stop_reason);
  out.exit_code = static_cast<int>(ExitCode::kRuntime);
  out.error = record.stop_reason + "; partial results (marked incomplete) in " + run.folder;
}

}  // namespace

RunOutcome ReportRun(const FinishedRun& run, const metrics::RunRecord& mine) {
  dist::Communicator& ranks = run.env.ranks;
  const bool lead = ranks.Rank() == 0;
  RunOutcome out;
  // A signal to rank 0 under several ranks is mpirun ending the job (Ctrl-C, or a rank
  // that died): the others may be gone, so rank 0 keeps its own measurements rather than
  // wait for theirs, and ends the job once they are written.
  const bool job_ending =
      lead && ranks.Size() > 1 && InterruptRequested() && !ThreadStopRequested();
  const auto records = job_ending ? std::vector{mine} : run.frame.Gather(mine);
  if (!lead) {
    if (!mine.complete && !mine.stopped_by_peer) LogWarning("stopped: " + mine.stop_reason);
    out.exit_code = mine.complete || EndedAsAsked(mine) ? 0
                    : mine.stop_reason == "interrupted" ? static_cast<int>(ExitCode::kInterrupted)
                                                        : static_cast<int>(ExitCode::kRuntime);
    return out;
  }
  const auto& config = run.options.config;
  out.reports = true;
  out.record = metrics::MergeRanks(records);
  const std::string finished = UtcStamp();
  out.summary = RunSummary(run, records, out.record, finished, job_ending);
  out.text = report::ConsoleTable(out.record, config) + (run.rules ? run.rules->table : "");
  if (records.size() > 1) {  // the job's rows, every rank's accelerators in each
    std::vector<std::vector<metrics::TimeseriesRow>> rows;
    for (const auto& r : records) rows.push_back(r.timeseries);
    out.record.timeseries =
        metrics::MergeRankRows(rows, AcceleratorCounts(run.layout, records.size()));
  }
  WriteRunFiles(run, records, out.record, out.record.timeseries);
  // The series is the run's own (merged over ranks), written above: none for the frame's.
  JobEnding ending;
  ending.complete = out.record.complete;
  ending.stop_reason = out.record.stop_reason;
  ending.finished = finished;
  out.results = run.frame.Finish(ending, nlohmann::ordered_json(out.summary), {});
  out.results.folder = run.folder;
  out.envelope = run.frame.envelope();
  // The kind's figures first, as before the envelope, so a reader matching the line's start
  // still finds it.
  out.line = FinalLine(report::MetricsLine(out.record, config), out.envelope, run.folder);
  EndRun(run, job_ending, out);
  if (!out.results.error.empty() && out.exit_code == 0)
    out.exit_code = static_cast<int>(ExitCode::kRuntime);
  return out;
}

}  // namespace trainbench::app
