#include "metrics/live_histogram.h"

namespace trainbench::metrics {

size_t LiveHistogram::BucketCount() {
  static const size_t kCount = Histogram::BucketOf(UINT64_MAX) + 1;
  return kCount;
}

LiveHistogram::LiveHistogram() : buckets_(new std::atomic<uint64_t>[BucketCount()]) {
  for (size_t i = 0; i < BucketCount(); ++i) buckets_[i].store(0, std::memory_order_relaxed);
}

void LiveHistogram::AddCounts(std::vector<uint64_t>& counts) const {
  if (counts.size() < BucketCount()) counts.resize(BucketCount(), 0);
  for (size_t i = 0; i < BucketCount(); ++i)
    counts[i] += buckets_[i].load(std::memory_order_relaxed);
}

Histogram LiveHistogram::ToHistogram() const {
  Histogram::Parts parts;
  for (size_t i = 0; i < BucketCount(); ++i)
    if (const uint64_t n = buckets_[i].load(std::memory_order_relaxed))
      parts.buckets.emplace_back(static_cast<uint32_t>(i), n);
  for (const auto& b : parts.buckets) parts.count += b.second;
  parts.sum = sum_.load(std::memory_order_relaxed);
  parts.min = parts.count ? min_.load(std::memory_order_relaxed) : 0;
  parts.max = max_.load(std::memory_order_relaxed);
  return Histogram::Import(parts);
}

Histogram HistogramOfCounts(const std::vector<uint64_t>& counts) {
  Histogram::Parts parts;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (!counts[i]) continue;
    parts.buckets.emplace_back(static_cast<uint32_t>(i), counts[i]);
    parts.count += counts[i];
    // Midpoints: the sum only feeds Mean(), which the time series does not report.
    parts.sum += counts[i] * ((Histogram::BucketLow(i) + Histogram::BucketHigh(i)) / 2);
  }
  if (parts.count) {
    parts.min = Histogram::BucketLow(parts.buckets.front().first);
    parts.max = Histogram::BucketHigh(parts.buckets.back().first);
  }
  return Histogram::Import(parts);
}

}  // namespace trainbench::metrics
