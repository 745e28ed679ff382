// The time series of a `stage`, `train`, `datagen` or `replay` job (timeseries.csv, `run`'s
// columns): a sampler thread (metrics/interval_sampler.h) reading the stage's live figures (bytes
// fetched, streams busy) and training's (images, data wait, epoch), either or both, every interval.
// A job that stages then trains has one series across both: phase "stage", then "train".
// Thread safety: construct and Finish on one thread; the live figures are written by the
// stage's loop and the training loop.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "metrics/interval_sampler.h"
#include "metrics/live_counters.h"
#include "metrics/timeseries.h"
#include "stage/stage_live.h"

namespace trainbench::app {

// What a job's sampling produced (interval_s 0: none was taken).
struct TimeseriesResult {
  double interval_s = 0;
  std::vector<metrics::TimeseriesRow> rows;
  double sampler_cpu_s = 0;  // what taking them cost
};

class JobTimeseries {
 public:
  // Starts sampling every interval_s (nothing when 0). `stage` and `train` may be null, and
  // must outlive Finish; `io`, when given, sets a job's own cumulative figures and phase
  // (a datagen's bytes written, a replay's bytes and operations) at each sample; `on_row`,
  // when given, gets each row as it is taken (ResultsWriter::Row: a killed job keeps them).
  JobTimeseries(double interval_s, const stage::StageLive* stage,
                const metrics::LiveCounters* train,
                std::function<void(metrics::IntervalProbe&)> io = {},
                metrics::IntervalSampler::OnRow on_row = {});
  ~JobTimeseries();
  JobTimeseries(const JobTimeseries&) = delete;
  JobTimeseries& operator=(const JobTimeseries&) = delete;

  // Takes the last row (phase "done") and stops. Idempotent.
  TimeseriesResult Finish();

 private:
  void Probe(metrics::IntervalProbe& p) const;

  const double interval_s_;
  const stage::StageLive* stage_;
  const metrics::LiveCounters* train_;
  const std::function<void(metrics::IntervalProbe&)> io_;
  std::atomic<bool> ended_{false};
  std::unique_ptr<metrics::IntervalSampler> sampler_;
  TimeseriesResult result_;
};

}  // namespace trainbench::app
