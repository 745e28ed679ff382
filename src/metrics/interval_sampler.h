// Takes the time series' rows: a thread that wakes at every interval's end (run start + k x
// interval, so rows do not drift), asks the probe for the cumulative figures, and turns the
// difference from the previous probe into a row. A thread of its own rather than a tick of
// the event loop: rows keep coming while the loop is blocked (a checkpoint being written,
// a barrier over ranks), and the loop's own timing is untouched. Its cost is one wake-up
// per interval: a copy of the latency buckets (about 3,800 loads per reader loop),
// getrusage and /proc/self/statm.
// Thread safety: construct, Stop and TakeRows from one thread; `probe` and `on_row` run on
// the sampler's thread (on_row may be slow: a row is handed over after it is stored).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "metrics/timeseries.h"

namespace trainbench::metrics {

class IntervalSampler {
 public:
  using Probe = std::function<void(IntervalProbe&)>;  // fills all but cpu_s and rss_bytes
  using OnRow = std::function<void(const TimeseriesRow&)>;

  // Starts sampling; run_start is NowSeconds() when the run began.
  IntervalSampler(double interval_s, double run_start, uint64_t accelerators, Probe probe,
                  OnRow on_row);
  ~IntervalSampler();
  IntervalSampler(const IntervalSampler&) = delete;
  IntervalSampler& operator=(const IntervalSampler&) = delete;

  // Ends sampling with a last row for the part interval since the previous one (shorter
  // than half an interval, it is folded into the previous row instead).
  void Stop();
  std::vector<TimeseriesRow> TakeRows();
  // The CPU time the sampler's thread spent (probes, rows, on_row), known after Stop: what
  // the time series costs, reported beside the run's CPU so the cost is seen, not assumed.
  double CpuSeconds() const { return cpu_s_; }

 private:
  void Run();
  void Sample(IntervalProbe& into);

  const double interval_s_;
  const double run_start_;
  const uint64_t accelerators_;
  Probe probe_;
  OnRow on_row_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::vector<TimeseriesRow> rows_;
  double cpu_s_ = 0;  // written by the thread as it ends, read after join
  std::thread thread_;
};

}  // namespace trainbench::metrics
