// Records of several ranks: a histogram survives JSON whole, a record round-trips, and the
// merge sums what adds up, takes the slowest phase, computes AU over every accelerator and
// keeps the lowest, and names the rank that stopped first by itself.
#include "metrics/run_record_merge.h"

#include <gtest/gtest.h>

#include "metrics/run_record_json.h"

namespace trainbench::metrics {
namespace {

Histogram Sample(uint64_t from, uint64_t step, int n) {
  Histogram h;
  for (int i = 0; i < n; ++i) h.Record(from + step * static_cast<uint64_t>(i));
  return h;
}

TEST(HistogramParts, ExportImportIsExact) {
  const Histogram h = Sample(1000, 7777, 5000);
  const Histogram back = nlohmann::json(h).get<Histogram>();
  EXPECT_EQ(back.Count(), h.Count());
  EXPECT_EQ(back.Min(), h.Min());
  EXPECT_EQ(back.Max(), h.Max());
  EXPECT_DOUBLE_EQ(back.Mean(), h.Mean());
  for (double q : {0.5, 0.9, 0.99, 0.999}) EXPECT_DOUBLE_EQ(back.Percentile(q), h.Percentile(q));
  EXPECT_EQ(nlohmann::json(Histogram()).get<Histogram>().Count(), 0u);
}

TEST(HistogramParts, RejectsBucketsThatDoNotAddUp) {
  auto j = nlohmann::json(Sample(5, 1, 10));
  j["count"] = 11;
  EXPECT_THROW(j.get<Histogram>(), std::invalid_argument);
  j = nlohmann::json(Sample(5, 1, 10));
  j["buckets"].push_back({1u << 30, 1});
  j["count"] = 11;
  EXPECT_THROW(j.get<Histogram>(), std::invalid_argument);
}

RunRecord Rank(const std::string& host, double compute, double counted, uint64_t samples,
               double seconds, double au_min) {
  RunRecord r;
  r.workload = "w";
  r.accelerators = 4;
  r.hosts = {host};
  PhaseRecord p;
  p.kind = "train";
  p.epoch = 1;
  p.steps = 10;
  p.samples = samples;
  p.bytes_read = samples * 100;
  p.requested_bytes = samples * 100;
  p.duration_s = seconds;
  p.compute_s = compute;
  p.counted_s = counted;
  p.au_percentage = 100 * compute / counted;
  p.au_min_percentage = au_min;
  r.epochs = {p};
  r.read_latency_ns = Sample(1000, 10, samples);
  r.io.reads = samples;
  r.io.bytes_read = samples * 100;
  r.io.max_read_bytes = samples;
  r.cpu_seconds = 1;
  r.peak_rss_bytes = samples * 1000;
  r.storage_counters["requests"] = static_cast<double>(samples);
  r.storage_latency_ns["GET"] = Sample(5000, 3, samples);
  return r;
}

TEST(MergeRanks, SumsTakesTheSlowestAndAveragesAuOverAccelerators) {
  const auto a = Rank("hosta", 9, 10, 30, 2.0, 85);
  const auto b = Rank("hostb", 5, 10, 10, 3.0, 40);
  const RunRecord m = MergeRanks({a, b});
  EXPECT_EQ(m.ranks, 2u);
  EXPECT_EQ(m.hosts, (std::vector<std::string>{"hosta", "hostb"}));
  ASSERT_EQ(m.epochs.size(), 1u);
  EXPECT_EQ(m.epochs[0].samples, 40u);
  EXPECT_EQ(m.epochs[0].bytes_read, 4000u);
  EXPECT_DOUBLE_EQ(m.epochs[0].duration_s, 3.0);
  EXPECT_DOUBLE_EQ(m.epochs[0].au_percentage, 70.0);  // (9 + 5) / (10 + 10)
  EXPECT_DOUBLE_EQ(m.epochs[0].au_min_percentage, 40.0);
  EXPECT_EQ(m.read_latency_ns.Count(), 40u);
  EXPECT_EQ(m.read_latency_ns.Max(), b.read_latency_ns.Max() > a.read_latency_ns.Max()
                                         ? b.read_latency_ns.Max()
                                         : a.read_latency_ns.Max());
  EXPECT_EQ(m.io.reads, 40u);
  EXPECT_EQ(m.io.max_read_bytes, 30u);
  EXPECT_DOUBLE_EQ(m.cpu_seconds, 2.0);
  EXPECT_EQ(m.peak_rss_bytes, 30000u);
  EXPECT_DOUBLE_EQ(m.storage_counters.at("requests"), 40.0);
  EXPECT_EQ(m.storage_latency_ns.at("GET").Count(), 40u);
  EXPECT_TRUE(m.complete);
}

TEST(MergeRanks, ThePhaseAndRunAreCompleteOnlyWhenEveryRankIs) {
  auto a = Rank("h", 1, 1, 10, 1, 100);
  auto b = Rank("h", 1, 1, 10, 1, 100);
  PhaseRecord second = a.epochs[0];
  second.epoch = 2;
  a.epochs.push_back(second);  // rank 1 stopped before epoch 2
  b.complete = false;
  b.stop_reason = "short read at offset 7 of 'f'";
  a.complete = false;
  a.stop_reason = "rank 1 (h): short read at offset 7 of 'f'";
  a.stopped_by_peer = true;
  const RunRecord m = MergeRanks({a, b});
  ASSERT_EQ(m.epochs.size(), 2u);
  EXPECT_TRUE(m.epochs[0].complete);
  EXPECT_FALSE(m.epochs[1].complete);
  EXPECT_FALSE(m.complete);
  EXPECT_EQ(m.stop_reason, "rank 1 (h): short read at offset 7 of 'f'");
}

TEST(MergeRanks, CheckpointSharesAddUp) {
  auto a = Rank("h", 1, 1, 1, 1, 100);
  auto b = a;
  a.checkpoints = {{"write", 1, 10, "m-epoch1-step10", 600, 2, 0.5}};
  b.checkpoints = {{"write", 1, 10, "m-epoch1-step10", 400, 2, 0.8}};
  const RunRecord m = MergeRanks({a, b});
  ASSERT_EQ(m.checkpoints.size(), 1u);
  EXPECT_EQ(m.checkpoints[0].bytes, 1000u);
  EXPECT_EQ(m.checkpoints[0].files, 4u);
  EXPECT_DOUBLE_EQ(m.checkpoints[0].seconds, 0.8);
}

// Each rank tells its cache figure by the method that sees its reads: the figures add up;
// hosts by different methods are "mixed" and named; a host that cannot tell makes the whole
// unknown, and says which and why.
TEST(MergeRanks, CacheFiguresAddUpByMethod) {
  auto a = Rank("hosta", 1, 1, 1, 1, 100);
  auto b = Rank("hostb", 1, 1, 1, 1, 100);
  a.cache = {"mincore", "the data is on fuse.ceph-fuse", 300, 700, 0, 0.25};
  b.cache = {"mincore", "the data is on fuse.ceph-fuse", 100, 900, 10, 0.5};
  RunRecord m = MergeRanks({a, b});
  EXPECT_EQ(m.cache.method, "mincore");
  EXPECT_EQ(m.cache.storage_read_bytes, 400u);
  EXPECT_EQ(m.cache.resident_bytes, 1600u);
  EXPECT_EQ(m.cache.unchecked_bytes, 10u);
  EXPECT_DOUBLE_EQ(m.cache.check_seconds, 0.75);
  b.cache = {"proc_io", "ext4", 50, 0, 0, 0};
  m = MergeRanks({a, b});
  EXPECT_EQ(m.cache.method, "mixed");
  EXPECT_EQ(m.cache.storage_read_bytes, 350u);
  EXPECT_NE(m.cache.reason.find("hosta: mincore, hostb: proc_io"), std::string::npos)
      << m.cache.reason;
  b.cache = {"none", "reader.odirect", 0, 0, 0, 0};
  m = MergeRanks({a, b});
  EXPECT_EQ(m.cache.method, "none");
  EXPECT_EQ(m.cache.reason, "hostb: reader.odirect");
}

TEST(RunRecordJson, RoundTripsWhole) {
  auto r = Rank("hosta", 9, 10, 30, 2.0, 85);
  r.checkpoints = {{"read", 2, 0, "p", 5, 1, 0.25}};
  r.io_after.read_bytes = 77;
  r.io_after.available = true;
  r.cache = {"mincore", "why", 1, 2, 3, 0.5};
  r.stop_reason = "x";
  const RunRecord back = nlohmann::json(r).get<RunRecord>();
  EXPECT_EQ(nlohmann::json(back).dump(), nlohmann::json(r).dump());
}

}  // namespace
}  // namespace trainbench::metrics
