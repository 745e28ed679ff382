// One kind of operation's figures, as replay and sai3-bench sum them over workers and ranks:
// Merge adds counts and latencies and keeps the first error met; the figures survive the trip
// to JSON and back that carries them from a rank to rank 0 (histogram bucket by bucket); a
// rank's figures by operation merge by name; the summary row's rates are over the span.
#include "ops/op_figures.h"

#include <gtest/gtest.h>

#include "app/replay/op_table.h"
#include "ops/workers.h"

namespace trainbench::ops {
namespace {

OpFigures Some(uint64_t count, uint64_t bytes, uint64_t latency_ns, const std::string& error) {
  OpFigures f;
  f.count = count;
  f.bytes = bytes;
  f.errors = error.empty() ? 0 : 1;
  f.skipped = 1;
  for (uint64_t i = 0; i < count; ++i) f.latency_ns.Record(latency_ns);
  f.first_error = error;
  return f;
}

TEST(OpFigures, MergeAddsAndKeepsTheFirstError) {
  OpFigures a = Some(3, 300, 1000, "");
  a.Merge(Some(2, 50, 9000, "timeout"));
  a.Merge(Some(1, 10, 5000, "refused"));
  EXPECT_EQ(a.count, 6u);
  EXPECT_EQ(a.bytes, 360u);
  EXPECT_EQ(a.errors, 2u);
  EXPECT_EQ(a.skipped, 3u);
  EXPECT_EQ(a.latency_ns.Count(), 6u);
  EXPECT_EQ(a.latency_ns.Min(), 1000u);
  EXPECT_EQ(a.latency_ns.Max(), 9000u);
  EXPECT_EQ(a.first_error, "timeout");
}

TEST(OpFigures, JsonRoundTrip) {
  const OpFigures a = Some(5, 4096, 123456, "bad");
  const nlohmann::json j = a;
  EXPECT_EQ(j.at("count"), 5);
  EXPECT_EQ(j.at("first_error"), "bad");
  const auto back = nlohmann::json::parse(j.dump()).get<OpFigures>();
  EXPECT_EQ(back.count, a.count);
  EXPECT_EQ(back.bytes, a.bytes);
  EXPECT_EQ(back.errors, a.errors);
  EXPECT_EQ(back.skipped, a.skipped);
  EXPECT_EQ(back.first_error, a.first_error);
  EXPECT_EQ(back.latency_ns.Count(), a.latency_ns.Count());
  EXPECT_EQ(back.latency_ns.Percentile(0.5), a.latency_ns.Percentile(0.5));
  EXPECT_EQ(back.latency_ns.Max(), a.latency_ns.Max());
}

TEST(OpFigures, RankFiguresRoundTripAndMergeByName) {
  ReplayFigures rank;
  rank.ops[ReplayOp::kGet] = Some(4, 400, 2000, "");
  rank.ops[ReplayOp::kPut] = Some(1, 100, 7000, "denied");
  rank.start_ns = 10;
  rank.end_ns = 20;
  rank.interrupted = true;
  const auto back = nlohmann::json::parse(nlohmann::json(rank).dump()).get<ReplayFigures>();
  EXPECT_EQ(back.start_ns, 10);
  EXPECT_EQ(back.end_ns, 20);
  EXPECT_TRUE(back.interrupted);
  ASSERT_EQ(back.ops.size(), 2u);
  EXPECT_EQ(back.ops.at(ReplayOp::kPut).first_error, "denied");

  OpFiguresByName job;
  MergeByName(job, ByName(rank.ops));
  MergeByName(job, ByName(back.ops));
  ASSERT_EQ(job.size(), 2u);
  EXPECT_EQ(job.at("GET").count, 8u);
  EXPECT_EQ(job.at("GET").latency_ns.Count(), 8u);
  EXPECT_EQ(job.at("PUT").bytes, 200u);
}

TEST(OpFigures, RowRatesOverTheSpan) {
  const app::OpRow row = app::RowOf(Some(10, 10 << 20, 1'000'000, ""), 2.0);
  EXPECT_DOUBLE_EQ(row.ops_per_second, 5.0);
  EXPECT_DOUBLE_EQ(row.MiB_per_second, 5.0);
  EXPECT_DOUBLE_EQ(row.latency_ms.at("p50").get<double>(), 1.0);
  const nlohmann::ordered_json j = row;
  EXPECT_FALSE(j.contains("op"));     // not set: a replay names its rows above them
  EXPECT_FALSE(j.contains("share"));  // not set: only a sai3-bench mix has shares
  EXPECT_EQ(j.begin().key(), "count");
}

}  // namespace
}  // namespace trainbench::ops
