// A log-linear histogram of non-negative integer values (nanoseconds, bytes): exact
// below 128, then 64 linear sub-buckets per power of two, so any reported percentile
// is within 0.8% of the true value (bucket midpoints; the relative bucket width is at
// most 1/64). Fixed size (about 30 KiB), no allocation per Record, mergeable.
// Not thread-safe: give each thread its own and Merge them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace trainbench::metrics {

class Histogram {
 public:
  Histogram();

  void Record(uint64_t value);
  void Merge(const Histogram& other);

  uint64_t Count() const { return count_; }
  uint64_t Min() const { return count_ ? min_ : 0; }
  uint64_t Max() const { return max_; }
  double Mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0;
  }
  // The value at quantile q in [0, 1] (0.999 for p99.9); 0 when empty.
  double Percentile(double q) const;

  // The non-empty buckets and the totals, so a histogram can travel between processes and
  // be rebuilt whole (merged bucket by bucket, never by averaging percentiles).
  struct Parts {
    std::vector<std::pair<uint32_t, uint64_t>> buckets;  // (bucket index, count), ascending
    uint64_t count = 0, sum = 0, min = 0, max = 0;
  };
  Parts Export() const;
  // Throws std::invalid_argument on a bucket index out of range or counts that disagree.
  static Histogram Import(const Parts& parts);

  // Exposed for the arithmetic tests.
  static size_t BucketOf(uint64_t value);
  static uint64_t BucketLow(size_t bucket);
  static uint64_t BucketHigh(size_t bucket);  // inclusive

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
};

}  // namespace trainbench::metrics
