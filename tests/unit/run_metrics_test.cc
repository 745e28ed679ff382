// Arithmetic of the run's metrics: histogram percentiles within 1%, AU with excluded
// start steps, Darshan's access-size buckets and sequential/consecutive counting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/random.h"
#include "metrics/au.h"
#include "metrics/histogram.h"
#include "metrics/io_characterization.h"

namespace trainbench::metrics {
namespace {

TEST(Histogram, BucketsAreContiguousAndNarrow) {
  for (size_t b = 0; b + 1 < 3000; ++b) {
    EXPECT_EQ(Histogram::BucketHigh(b) + 1, Histogram::BucketLow(b + 1)) << b;
    EXPECT_EQ(Histogram::BucketOf(Histogram::BucketLow(b)), b);
    EXPECT_EQ(Histogram::BucketOf(Histogram::BucketHigh(b)), b);
    const double low = static_cast<double>(Histogram::BucketLow(b));
    const double width = static_cast<double>(Histogram::BucketHigh(b)) - low + 1;
    if (width > 1) {  // below 128 every bucket holds one value: exact
      EXPECT_LE(width / low, 1.0 / 64 + 1e-12) << b;
    }
  }
  EXPECT_EQ(Histogram::BucketOf(0), 0u);
  EXPECT_EQ(Histogram::BucketOf(127), 127u);
  EXPECT_LT(Histogram::BucketOf(UINT64_MAX), 4000u);
}

TEST(Histogram, PercentilesWithinOnePercentOfExact) {
  Random random(7);
  Histogram h;
  std::vector<uint64_t> values;
  for (int i = 0; i < 200000; ++i) {
    // Log-normal-ish latencies from 1 us to about 100 ms, in nanoseconds.
    const auto v = static_cast<uint64_t>(std::exp(7 + 4.5 * random.Uniform() + random.Normal()));
    values.push_back(v);
    h.Record(v);
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
    const double exact = static_cast<double>(values[rank - 1]);
    EXPECT_NEAR(h.Percentile(q), exact, exact * 0.01) << "q=" << q;
  }
  EXPECT_EQ(h.Max(), values.back());
  EXPECT_EQ(h.Min(), values.front());
  EXPECT_EQ(h.Count(), values.size());
  EXPECT_EQ(h.Percentile(1.0), static_cast<double>(values.back()));
}

TEST(Histogram, SmallValuesExactAndMergeAddsUp) {
  Histogram a, b;
  for (uint64_t v = 1; v <= 100; ++v) (v % 2 ? a : b).Record(v);
  a.Merge(b);
  EXPECT_EQ(a.Count(), 100u);
  EXPECT_DOUBLE_EQ(a.Percentile(0.5), 50);
  EXPECT_DOUBLE_EQ(a.Percentile(0.99), 99);
  EXPECT_DOUBLE_EQ(a.Mean(), 50.5);
  EXPECT_EQ(Histogram().Percentile(0.5), 0);
}

TEST(Au, ExcludesStartStepsFromComputeAndTime) {
  // Step 0 takes 10 s (warm-up, excluded); steps 1..4 take 1 s with 0.9 s of compute.
  AuAccumulator a(1);
  a.AddStep(0, 0, 0.5, 10);
  for (uint64_t s = 1; s < 5; ++s) a.AddStep(s, 10 + (s - 1), 0.9, 10 + s);
  EXPECT_DOUBLE_EQ(a.CountedCompute(), 3.6);
  EXPECT_DOUBLE_EQ(a.CountedElapsed(), 4);
  EXPECT_NEAR(AuPercentage({a}), 90, 1e-9);

  AuAccumulator none(0);  // nothing excluded: the warm-up counts
  none.AddStep(0, 0, 0.5, 10);
  for (uint64_t s = 1; s < 5; ++s) none.AddStep(s, 10 + (s - 1), 0.9, 10 + s);
  EXPECT_NEAR(AuPercentage({none}), 100 * 4.1 / 14, 1e-9);
}

TEST(Au, ShortEpochCountsAllStepsAndAveragesOverAccelerators) {
  AuAccumulator short_epoch(3);
  short_epoch.AddStep(0, 0, 1, 2);
  EXPECT_NEAR(AuPercentage({short_epoch}), 50, 1e-9);
  AuAccumulator fast(0), slow(0);
  fast.AddStep(0, 0, 1, 1);  // 100%
  slow.AddStep(0, 0, 1, 3);  // 33%: AU is total compute over total time
  EXPECT_NEAR(AuPercentage({fast, slow}), 50, 1e-9);
  EXPECT_EQ(AuPercentage({}), 0);
  const auto ms = MeanAndStdev({90, 92, 94});
  EXPECT_DOUBLE_EQ(ms.mean, 92);
  EXPECT_NEAR(ms.stdev, std::sqrt(8.0 / 3), 1e-12);
}

TEST(IoCharacterization, DarshanBuckets) {
  EXPECT_EQ(AccessSizeBucket(0), 0u);
  EXPECT_EQ(AccessSizeBucket(100), 0u);
  EXPECT_EQ(AccessSizeBucket(101), 1u);
  EXPECT_EQ(AccessSizeBucket(1024), 1u);
  EXPECT_EQ(AccessSizeBucket(1025), 2u);
  EXPECT_EQ(AccessSizeBucket(114660), 4u);  // a ResNet-50 sample: 100K-1M
  EXPECT_EQ(AccessSizeBucket(262144), 4u);
  EXPECT_EQ(AccessSizeBucket(4 << 20), 5u);
  EXPECT_EQ(AccessSizeBucket((4 << 20) + 1), 6u);
  EXPECT_EQ(AccessSizeBucket(100 << 20), 7u);
  EXPECT_EQ(AccessSizeBucket(1 << 30), 8u);
  EXPECT_EQ(AccessSizeBucket((1ull << 30) + 1), 9u);
  EXPECT_EQ(AccessSizeBucketNames()[9], "1G_PLUS");
}

TEST(IoCharacterization, SequentialConsecutiveAndRereads) {
  const std::vector<uint64_t> sizes{1000, 1000};
  IoCharacterizer io(sizes);
  io.OnOpens(1);
  io.OnRead(0, 0, 100);    // first read of the file: neither
  io.OnRead(0, 100, 100);  // consecutive (and sequential)
  io.OnRead(0, 300, 100);  // sequential, not consecutive
  io.OnRead(0, 0, 900);    // backwards
  io.OnRead(0, 900, 100);  // consecutive; file 0 now read 1300 of 1000 bytes
  io.OnRead(1, 0, 50);
  const auto c = io.Counters();
  EXPECT_EQ(c.opens, 1u);
  EXPECT_EQ(c.reads, 6u);
  EXPECT_EQ(c.bytes_read, 1350u);
  EXPECT_EQ(c.sequential_reads, 3u);
  EXPECT_EQ(c.consecutive_reads, 2u);
  EXPECT_EQ(c.files_read, 2u);
  EXPECT_EQ(c.files_reread, 1u);
  EXPECT_EQ(c.size_buckets[0], 5u);
  EXPECT_EQ(c.size_buckets[1], 1u);
  EXPECT_EQ(c.max_read_bytes, 900u);
}

}  // namespace
}  // namespace trainbench::metrics
