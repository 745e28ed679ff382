// The time series' arithmetic: a live histogram read while it is written, an interval's
// histogram from two copies of the buckets, the wait for data at any instant (ongoing waits
// included), rows from probes, merging ranks' rows; the live view's block; the replication
// rule.
#include "metrics/timeseries.h"

#include <gtest/gtest.h>

#include <thread>

#include "metrics/live_counters.h"
#include "metrics/live_histogram.h"
#include "report/console/live_view.h"
#include "report/replication.h"

namespace trainbench {
namespace {

TEST(LiveHistogram, MatchesHistogramAndSubtractsToAnInterval) {
  metrics::LiveHistogram live;
  metrics::Histogram plain;
  for (uint64_t v = 1; v < 100000; v += 37) {
    live.Record(v * 1000);
    plain.Record(v * 1000);
  }
  const auto whole = live.ToHistogram();
  EXPECT_EQ(whole.Count(), plain.Count());
  EXPECT_EQ(whole.Max(), plain.Max());
  EXPECT_EQ(whole.Min(), plain.Min());
  EXPECT_DOUBLE_EQ(whole.Percentile(0.99), plain.Percentile(0.99));

  std::vector<uint64_t> before;
  live.AddCounts(before);
  for (int i = 0; i < 1000; ++i) live.Record(5'000'000);  // the interval: 1000 reads of 5 ms
  std::vector<uint64_t> after;
  live.AddCounts(after);
  for (size_t i = 0; i < after.size(); ++i) after[i] -= before[i];
  const auto interval = metrics::HistogramOfCounts(after);
  EXPECT_EQ(interval.Count(), 1000u);
  EXPECT_NEAR(interval.Percentile(0.5), 5e6, 5e6 / 64);
  EXPECT_NEAR(interval.Percentile(0.99), 5e6, 5e6 / 64);
  EXPECT_EQ(metrics::HistogramOfCounts({}).Count(), 0u);
}

TEST(LiveHistogram, ReadWhileRecorded) {
  metrics::LiveHistogram live;
  std::thread writer([&] {
    for (int i = 0; i < 200000; ++i) live.Record(static_cast<uint64_t>(i % 5000));
  });
  uint64_t last = 0;
  for (int k = 0; k < 50; ++k) {  // counts only grow, never half-written
    std::vector<uint64_t> counts;
    live.AddCounts(counts);
    uint64_t total = 0;
    for (auto c : counts) total += c;
    EXPECT_GE(total, last);
    last = total;
  }
  writer.join();
  EXPECT_EQ(live.ToHistogram().Count(), 200000u);
}

TEST(LiveCounters, WaitIncludesOngoingWaits) {
  metrics::LiveCounters live;
  const double t = NowSeconds();
  live.StartWait(t);      // accelerator 0 waits from t
  live.StartWait(t + 1);  // accelerator 1 from t + 1
  auto w = live.WaitAt(t + 2);
  EXPECT_EQ(w.waiting, 2u);
  EXPECT_NEAR(w.total_s, 3.0, 1e-6);  // 2 s + 1 s so far
  live.EndWait(t, 2.5);               // accelerator 0's batch came at t + 2.5
  w = live.WaitAt(t + 4);
  EXPECT_EQ(w.waiting, 1u);
  EXPECT_NEAR(w.total_s, 2.5 + 3.0, 1e-6);
}

TEST(Timeseries, RowBetweenProbes) {
  metrics::IntervalProbe a, b;
  a.now = 100;
  b.now = 100.5;
  b.phase = metrics::LivePhase::kTrain;
  b.epoch = 2;
  a.samples = 1000;
  b.samples = 1400;
  a.bytes = 0;
  b.bytes = 50'000'000;
  a.reads = 10;
  b.reads = 20;
  a.wait_s = 1;
  b.wait_s = 2;  // 1 accelerator-second waited in 0.5 s: 2 accelerators on average
  a.cpu_s = 3;
  b.cpu_s = 3.25;
  a.latency_counts.assign(metrics::LiveHistogram::BucketCount(), 0);
  b.latency_counts = a.latency_counts;
  b.latency_counts[metrics::Histogram::BucketOf(2'000'000)] = 10;
  const auto row = metrics::RowBetween(a, b, 90, 8);
  EXPECT_DOUBLE_EQ(row.elapsed_s, 10.5);
  EXPECT_DOUBLE_EQ(row.interval_s, 0.5);
  EXPECT_EQ(row.phase, "train");
  EXPECT_DOUBLE_EQ(row.samples_per_second, 800);
  EXPECT_DOUBLE_EQ(row.io_mb_per_second, 100);
  EXPECT_EQ(row.reads, 10u);
  EXPECT_DOUBLE_EQ(row.accelerators_waiting, 2);
  EXPECT_DOUBLE_EQ(row.data_wait_share, 0.25);
  EXPECT_DOUBLE_EQ(row.cpu_percent, 50);
  EXPECT_NEAR(row.read_latency_p99_ms, 2.0, 2.0 / 64);
}

TEST(Timeseries, MergeRanksSumsRatesAndKeepsWorstLatency) {
  metrics::TimeseriesRow r0, r1;
  r0.interval_s = r1.interval_s = 1;
  r0.samples_per_second = 100;
  r1.samples_per_second = 50;
  r0.reads = 7;
  r1.reads = 3;
  r0.accelerators_waiting = 1;
  r1.accelerators_waiting = 3;
  r0.read_latency_p99_ms = 2;
  r1.read_latency_p99_ms = 5;
  const auto merged = metrics::MergeRankRows({{r0, r0}, {r1}}, {4, 4});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_DOUBLE_EQ(merged[0].samples_per_second, 150);
  EXPECT_EQ(merged[0].reads, 10u);
  EXPECT_DOUBLE_EQ(merged[0].data_wait_share, 0.5);
  EXPECT_DOUBLE_EQ(merged[0].read_latency_p99_ms, 5);
  EXPECT_DOUBLE_EQ(merged[1].samples_per_second, 100);  // rank 1 had stopped
}

TEST(LiveView, BlockAndLineCarryTheFigures) {
  report::LiveStatus s{"train", 2, 5, 30, 120, 1000, 50e6, 97.5, true};
  metrics::TimeseriesRow row;
  row.samples_per_second = 1234.5;
  row.io_mb_per_second = 141.5;
  row.read_latency_p99_ms = 2.5;
  const std::string block = report::LiveView::Block("resnet50_h100", s, row, 90, 60);
  EXPECT_NE(block.find("resnet50_h100 | train epoch 2/5 | step 30/120 (25%)"), std::string::npos);
  EXPECT_NE(block.find("1234.5 samples/s"), std::string::npos);
  EXPECT_NE(block.find("AU 97.5% so far (target 90%)"), std::string::npos);
  EXPECT_NE(block.find("read p99 2.500 ms"), std::string::npos);
  // 150 of 600 steps took 60 s: 450 more take about 180 s.
  EXPECT_NE(block.find("ETA ~3:00"), std::string::npos) << block;
  const std::string line = report::LiveView::Line(s, std::nullopt, 60);
  EXPECT_NE(line.find("1000.0 samples/s | 50.0 MB/s | AU 97.5%"), std::string::npos) << line;
}

// An epoch's first instant: no step has ended, so no rate and no AU, not "0.0 samples/s
// 6883200000.0 MB/s AU 0.0%" (issue 34, point 13); a time series row's rates still show.
TEST(LiveView, NothingMeasuredShowsDashes) {
  report::LiveStatus s{"train", 2, 5, 0, 120, 0, 6883200000e6, 0, false};
  const std::string line = report::LiveView::Line(s, std::nullopt, 60);
  EXPECT_NE(line.find("| — samples/s | — MB/s | AU — |"), std::string::npos) << line;
  const std::string block = report::LiveView::Block("resnet50_h100", s, std::nullopt, 90, 60);
  EXPECT_NE(block.find("— samples/s"), std::string::npos) << block;
  EXPECT_NE(block.find("AU — so far (target 90%)"), std::string::npos) << block;
  EXPECT_EQ(block.find("0.0"), std::string::npos) << block;
  metrics::TimeseriesRow row;
  row.samples_per_second = 1234.5;
  row.io_mb_per_second = 141.5;
  const std::string with_row = report::LiveView::Line(s, row, 60);
  EXPECT_NE(with_row.find("1234.5 samples/s | 141.5 MB/s | AU — |"), std::string::npos) << with_row;
}

report::RunResults ReplicaRun(double sps, bool passed) {
  report::RunResults r;
  r.name = "r";
  r.summary = {{"metric",
                {{"train_throughput_mean_samples_per_second", sps},
                 {"train_au_mean_percentage", passed ? 95.0 : 80.0}}},
               {"passed", passed},
               {"complete", true},
               {"workload", "resnet50_h100"},
               {"num_accelerators", 4},
               {"au_target_percentage", 90.0}};
  return r;
}

TEST(Replication, FiveRunsWithinFivePercent) {
  auto runs = std::vector<report::RunResults>{ReplicaRun(100, true), ReplicaRun(101, true),
                                              ReplicaRun(102, true), ReplicaRun(103, true),
                                              ReplicaRun(104.9, true)};
  auto result = report::CheckReplication(runs);
  EXPECT_TRUE(result.passed) << result.text;
  EXPECT_NEAR(result.spread, 0.049, 1e-9);
  runs[4] = ReplicaRun(105.1, true);  // 5.1% above the slowest
  EXPECT_FALSE(report::CheckReplication(runs).passed);
  runs[4] = ReplicaRun(101, false);
  result = report::CheckReplication(runs);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.text.find("below the 90% target"), std::string::npos) << result.text;
  runs.pop_back();
  EXPECT_FALSE(report::CheckReplication(runs).passed);
}

}  // namespace
}  // namespace trainbench
