// The one frame every job that measures fills (run and checkpoint, the sweep and the grid,
// datagen, stage, train and staged train, replay, sai3-bench), so that each job function
// reads as its own steps and the frame's parts exist once:
//   check   the job's own refusals (UsageError, exit 2), before anything is opened
//   open    its storages and inputs (the job's own)
//   begin   JobFrame: the envelope (the frame's, a collective over every rank's host; or the
//           job's own: a run's with its rank layout, a stage's with its source), rank 0's log
//           and results writer, whose first summary (marked not ended) a kill -9 leaves behind
//   work    the measured part; Sample() feeds the time series into the writer as it is taken,
//           writer() keeps the figures so far and the job's other files
//   gather  Gather(): every rank's figures to rank 0, the envelope's end stamped
//   report  the job's text and figures; Finish() stamps how it ended (complete, interrupted,
//           stopped and why) and writes the final summary; End() also sets the exit status and
//           builds the final line, the same for every job that has no rules of its own for them
// Not thread-safe, but for the writer (ResultsWriter's own rules).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/frame/job_env.h"
#include "app/frame/job_log.h"
#include "app/frame/job_report.h"
#include "app/frame/job_timeseries.h"
#include "app/frame/results_writer.h"
#include "dist/typed_gather.h"
#include "report/result_envelope.h"

namespace trainbench::ops {
struct ReplayFigures;
}  // namespace trainbench::ops

namespace trainbench::app {

// How the work ended, as every job says it: interrupted exits 130, errors 1, else 0.
struct JobEnding {
  bool interrupted = false;
  bool complete = true;  // all of the work was done (false: what ran is reported, incomplete)
  uint64_t errors = 0;   // operations that failed
  std::string stop_reason = "";  // why it stopped ("": "interrupted" when it was, else none)
  std::string finished = "";     // when ("": as Gather stamped it, else now)
};

class JobFrame {
 public:
  // Begins the job of `kind` over `workload`: a collective (every rank's host for the
  // envelope). `config` is what the envelope keeps of the job's options.
  JobFrame(JobEnv& env, const std::string& kind, const std::string& workload, nlohmann::json config,
           double interval_s);
  // A job over `ranks` whose envelope is its own (a run's, with its rank layout), rank 0's
  // results kept in `results` (ignored on the other ranks; null: nowhere).
  JobFrame(dist::Communicator& ranks, ResultsSink* results, report::ResultEnvelope envelope,
           double interval_s);
  // A job of this one process (stage, train): its own envelope, its results in `results`.
  JobFrame(ResultsSink* results, report::ResultEnvelope envelope, double interval_s);
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
  // The same for a job that resumes (a sweep, a grid): the folder named `name` alone, taken
  // as an earlier invocation left it (ResultsWriter::OpenResumable).
  void BeginResumable(const std::string& name, const nlohmann::ordered_json& figures);
  // Rank 0's results folder ("" before Begin, elsewhere, or without results).
  const std::string& folder() const { return writer_.folder(); }
  // The time series sampled into the writer as rows are taken (only where rank 0 keeps
  // results): `io` sets the job's cumulative figures at each sample.
  std::unique_ptr<JobTimeseries> Sample(std::function<void(metrics::IntervalProbe&)> io);
  // The same over a stage's and a training's live figures (either may be null; both outlive
  // the series); `also`, when given, gets each row after the writer (a stage's wall time so
  // far into the summary).
  std::unique_ptr<JobTimeseries> Sample(const stage::StageLive* stage,
                                        const metrics::LiveCounters* train,
                                        std::function<void(metrics::IntervalProbe&)> io,
                                        std::function<void(const metrics::TimeseriesRow&)> also);
  // Every rank's `mine` to rank 0, in rank order (empty elsewhere); stamps the end. T goes
  // as JSON (dist::GatherAs: its to_json and from_json).
  template <class T>
  std::vector<T> Gather(const T& mine) {
    std::vector<T> all = dist::GatherAs(ranks_, mine);
    StampEnd();
    return all;
  }
  // The end on rank 0 for a job with its own exit status and line (run, stage, train, the
  // sweeps): the envelope stamped as `ending` says, the final summary with `figures` and
  // the series. Returns what was written (the folder, or why it could not be).
  WrittenResults Finish(const JobEnding& ending, const nlohmann::ordered_json& figures,
                        const TimeseriesResult& timeseries);
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
  void StampEnd();  // the envelope's end, now (Gather's, kept out of the header)

  std::unique_ptr<dist::Communicator> single_;  // a one-process job's own; null otherwise
  dist::Communicator& ranks_;
  bool lead_;
  ResultsSink* results_;  // rank 0's; null elsewhere
  double interval_s_;
  JobLog log_;
  report::ResultEnvelope envelope_;
  ResultsWriter writer_;
};

// The ranks' common figures of a workers' run (each rank's ops::ReplayFigures): the earliest
// start, the latest end of the ranks that ran, and whether any was interrupted.
struct RanksSpan {
  int64_t start_ns = INT64_MAX;
  int64_t end_ns = 0;
  bool interrupted = false;
  void Add(const ops::ReplayFigures& rank);
  double Seconds() const;
};

}  // namespace trainbench::app
