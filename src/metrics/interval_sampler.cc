#include "metrics/interval_sampler.h"

#include <chrono>

#include "metrics/process_stats.h"

namespace trainbench::metrics {

IntervalSampler::IntervalSampler(double interval_s, double run_start, uint64_t accelerators,
                                 Probe probe, OnRow on_row)
    : interval_s_(interval_s),
      run_start_(run_start),
      accelerators_(accelerators),
      probe_(std::move(probe)),
      on_row_(std::move(on_row)) {
  thread_ = std::thread([this] { Run(); });
}

IntervalSampler::~IntervalSampler() { Stop(); }

void IntervalSampler::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::vector<TimeseriesRow> IntervalSampler::TakeRows() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(rows_);
}

void IntervalSampler::Sample(IntervalProbe& into) {
  into.cpu_s = ProcessCpuSeconds();
  into.rss_bytes = CurrentResidentBytes();
  probe_(into);
}

void IntervalSampler::Run() {
  IntervalProbe older, before, after;  // older: where the last row began
  before.cpu_s = ProcessCpuSeconds();
  probe_(before);
  // What happened between the run's start and the sampler's belongs to the first row.
  before.now = run_start_;
  before.samples = before.bytes = before.reads = 0;
  before.wait_s = 0;
  before.latency_counts.assign(before.latency_counts.size(), 0);
  for (uint64_t k = 1;; ++k) {
    const double deadline = run_start_ + static_cast<double>(k) * interval_s_;
    bool stopping;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const auto until = std::chrono::steady_clock::time_point(
          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
              std::chrono::duration<double>(deadline)));
      cv_.wait_until(lock, until, [this] { return stop_; });
      stopping = stop_;
    }
    Sample(after);
    // The run ended shortly after a row: a rate over a few milliseconds says nothing (the
    // last steps' samples over 4 ms read as a spike), so that tail joins the last row.
    const bool tail = stopping && k > 1 && after.now - before.now < interval_s_ / 2;
    const TimeseriesRow row = RowBetween(tail ? older : before, after, run_start_, accelerators_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (tail)
        rows_.back() = row;
      else
        rows_.push_back(row);
    }
    if (on_row_) on_row_(row);
    if (stopping) {
      cpu_s_ = ThreadCpuSeconds();
      return;
    }
    std::swap(older, before);
    std::swap(before, after);
  }
}

}  // namespace trainbench::metrics
