#include "metrics/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace trainbench::metrics {
namespace {
constexpr int kSubBits = 6;                         // 64 sub-buckets per power of two
constexpr uint64_t kSub = uint64_t{1} << kSubBits;  // 64
constexpr uint64_t kExact = 2 * kSub;               // values below 128 are exact
constexpr size_t kBuckets = (64 - kSubBits) * kSub + kSub;
}  // namespace

Histogram::Histogram() : buckets_(kBuckets, 0) {}

size_t Histogram::BucketOf(uint64_t value) {
  if (value < kExact) return static_cast<size_t>(value);
  const int msb = 63 - std::countl_zero(value);
  const int shift = msb - kSubBits;  // value >> shift lies in [64, 128)
  return static_cast<size_t>((static_cast<uint64_t>(shift) + 1) * kSub + ((value >> shift) - kSub));
}

uint64_t Histogram::BucketLow(size_t bucket) {
  if (bucket < kExact) return bucket;
  const uint64_t shift = bucket / kSub - 1;
  return (bucket % kSub + kSub) << shift;
}

uint64_t Histogram::BucketHigh(size_t bucket) {
  if (bucket < kExact) return bucket;
  const uint64_t shift = bucket / kSub - 1;
  return BucketLow(bucket) + ((uint64_t{1} << shift) - 1);
}

void Histogram::Record(uint64_t value) {
  ++buckets_[BucketOf(value)];
  ++count_;
  sum_ += value;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
}

void Histogram::Merge(const Histogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

Histogram::Parts Histogram::Export() const {
  Parts p;
  for (size_t i = 0; i < kBuckets; ++i)
    if (buckets_[i]) p.buckets.emplace_back(static_cast<uint32_t>(i), buckets_[i]);
  p.count = count_;
  p.sum = sum_;
  p.min = Min();
  p.max = max_;
  return p;
}

Histogram Histogram::Import(const Parts& p) {
  Histogram h;
  uint64_t total = 0;
  for (const auto& [bucket, n] : p.buckets) {
    if (bucket >= kBuckets) throw std::invalid_argument("histogram bucket out of range");
    h.buckets_[bucket] += n;
    total += n;
  }
  if (total != p.count) throw std::invalid_argument("histogram buckets do not add up to count");
  h.count_ = p.count;
  h.sum_ = p.sum;
  h.min_ = p.count ? p.min : UINT64_MAX;
  h.max_ = p.max;
  return h;
}

double Histogram::Percentile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // The rank of the q-th value (1-based), as "nearest rank" defines it.
  const auto rank =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))));
  if (rank >= count_) return static_cast<double>(max_);  // the extremes are known exactly
  if (rank == 1) return static_cast<double>(min_);
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += buckets_[i];
    if (seen >= rank) {
      const double mid =
          (static_cast<double>(BucketLow(i)) + static_cast<double>(BucketHigh(i))) / 2;
      // The extremes are known exactly; never report beyond them.
      return std::clamp(mid, static_cast<double>(min_), static_cast<double>(max_));
    }
  }
  return static_cast<double>(max_);
}

}  // namespace trainbench::metrics
