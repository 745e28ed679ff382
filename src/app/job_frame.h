// The frame a multi-rank job fills (replay, sai3-bench, datagen), so that each job function
// reads as its own steps and the frame's parts exist once:
//   check   the job's own refusals (UsageError, exit 2), before anything is opened
//   open    its storages and inputs (the job's own)
//   begin   JobFrame: the envelope (a collective: every rank's host), rank 0's log and results
//           writer, whose first summary (marked not ended) a kill -9 leaves behind
//   work    the measured part; Sample() feeds the time series into the writer as it is taken
//   gather  Gather(): every rank's figures to rank 0, the envelope's end stamped
//   report  the job's text and figures; End() sets how it ended (complete, interrupted,
//           failed), writes the final summary and builds the final line, the same for every job
// Not thread-safe, but for the writer (ResultsWriter's own rules).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/job_env.h"
#include "app/job_log.h"
#include "app/job_report.h"
#include "app/job_timeseries.h"
#include "app/results_writer.h"
#include "report/result_envelope.h"

namespace trainbench::app {

// How the work ended, as every job says it: interrupted exits 130, errors 1, else 0.
struct JobEnding {
  bool interrupted = false;
  bool complete = true;  // all of the work was done (false: what ran is reported, incomplete)
  uint64_t errors = 0;   // operations that failed
};

class JobFrame {
 public:
  // Begins the job of `kind` over `workload`: a collective (every rank's host for the
  // envelope). `config` is what the envelope keeps of the job's options.
  JobFrame(JobEnv& env, const std::string& kind, const std::string& workload, nlohmann::json config,
           double interval_s);
  JobFrame(const JobFrame&) = delete;
  JobFrame& operator=(const JobFrame&) = delete;

  dist::Communicator& ranks() { return ranks_; }
  bool lead() const { return lead_; }
  JobLog& log() { return log_; }
  const report::ResultEnvelope& envelope() const { return envelope_; }
  ResultsWriter& writer() { return writer_; }

  // Rank 0's results folder, named `name`, and its first summary with `figures`: before the
  // work, so a killed job leaves them. Throws IoError naming the folder.
  void Begin(const std::string& name, const nlohmann::ordered_json& figures);
  // The time series sampled into the writer as rows are taken (only where rank 0 keeps
  // results): `io` sets the job's cumulative figures at each sample.
  std::unique_ptr<JobTimeseries> Sample(std::function<void(metrics::IntervalProbe&)> io);
  // Every rank's `mine` to rank 0, in rank order (empty elsewhere); stamps the end.
  std::vector<nlohmann::json> Gather(const nlohmann::json& mine);
  // The end, on rank 0: how it ended into `out` and the envelope, the final summary with
  // `figures` and the series, and the final line {line_key: figures[short_keys] + extra}
  // (no short_keys: every figure).
  void End(JobReport& out, const JobEnding& ending, const nlohmann::ordered_json& figures,
           const TimeseriesResult& timeseries, const std::string& line_key,
           std::initializer_list<const char*> short_keys = {},
           const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());
  // A job stopped by an error (or interrupted) before its end: rank 0's summary keeps
  // `figures` and the series so far, marked incomplete with `reason`. Never throws.
  void Stop(const std::string& reason, const nlohmann::ordered_json& figures,
            const TimeseriesResult& timeseries);

 private:
  dist::Communicator& ranks_;
  bool lead_;
  ResultsSink* results_;  // rank 0's; null elsewhere
  double interval_s_;
  JobLog log_;
  report::ResultEnvelope envelope_;
  ResultsWriter writer_;
};

// The ranks' common figures of a workers' run (ops::ReplayFigures as RankJson writes them):
// the earliest start, the latest end of the ranks that ran, and whether any was interrupted.
struct RanksSpan {
  int64_t start_ns = INT64_MAX;
  int64_t end_ns = 0;
  bool interrupted = false;
  void Add(const nlohmann::json& rank);
  double Seconds() const;
};

}  // namespace trainbench::app
