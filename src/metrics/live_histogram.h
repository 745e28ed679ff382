// A latency histogram that one thread records into while another reads it: the buckets of
// metrics::Histogram as relaxed atomics. Made for the read scheduler's reader loops, whose
// latencies the time series samples once per interval: recording costs what Histogram's
// does (the single writer loads and stores, no read-modify-write, no lock), and a reader
// copies the bucket counts whenever it likes and subtracts its previous copy to get the
// interval's histogram, each read counted in the interval it completed in.
// Thread safety: Record from one thread only; AddCounts and ToHistogram from any thread
// (a copy taken while Record runs may miss the reads of that moment, never half-count one).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "metrics/histogram.h"

namespace trainbench::metrics {

class LiveHistogram {
 public:
  LiveHistogram();

  void Record(uint64_t value) {
    auto bump = [](std::atomic<uint64_t>& a, uint64_t by) {
      a.store(a.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    };
    bump(buckets_[Histogram::BucketOf(value)], 1);
    bump(count_, 1);
    bump(sum_, value);
    if (value < min_.load(std::memory_order_relaxed)) min_.store(value, std::memory_order_relaxed);
    if (value > max_.load(std::memory_order_relaxed)) max_.store(value, std::memory_order_relaxed);
  }

  // Adds the bucket counts to `counts` (resized to BucketCount() when smaller).
  void AddCounts(std::vector<uint64_t>& counts) const;
  // Everything recorded so far as a Histogram (exact count, sum, min and max).
  Histogram ToHistogram() const;

  static size_t BucketCount();

 private:
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;
  std::atomic<uint64_t> count_{0}, sum_{0}, min_{UINT64_MAX}, max_{0};
};

// A histogram from bucket counts alone (an interval's: the difference of two copies): its
// min and max are the edges of the outer non-empty buckets, so percentiles keep the
// histogram's bucket precision (< 1%).
Histogram HistogramOfCounts(const std::vector<uint64_t>& counts);

}  // namespace trainbench::metrics
