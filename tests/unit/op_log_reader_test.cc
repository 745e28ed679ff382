// Reading op-logs back: what OpLog writes reads back field for field (plain and zstd), a zstd
// log cut short reads up to its last whole line and says so, sai3-bench's STAT and relative
// keys read, a line that is no op-log line is an error naming the line and the column; and
// the replay's plan puts operations in start order, per endpoint, with --ops and --target.
#include "metrics/op_log_reader.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "metrics/op_log.h"
#include "ops/replay_plan.h"

namespace trainbench::metrics {
namespace {

constexpr int64_t kT0 = 1'764'040'801'000'000'123;  // 2025-11-25T03:20:01.000000123Z

std::string Write(const std::string& name, int records) {
  const std::string path = testing::TempDir() + "/" + name;
  auto log = std::make_shared<OpLog>(path, "host:3", "/data/");
  {
    OpLogBuffer buffer(log, 1);
    for (int i = 0; i < records; ++i) {
      OpRecord r;
      r.thread = static_cast<uint64_t>(i % 2);
      r.op = i % 3 == 0 ? "PUT" : "GET";
      r.bytes = 1000 + static_cast<uint64_t>(i);
      const std::string file = "/data/train/f" + std::to_string(i);
      r.file = file;
      r.start_ns = kT0 + i * 1'000'000;
      r.end_ns = r.start_ns + 250'000;
      buffer.Add(r);
    }
  }
  log->Close();
  return path;
}

TEST(OpLogReader, ReadsBackWhatWasWritten) {
  for (const char* name : {"back.tsv", "back.tsv.zst"}) {
    const auto contents = ReadOpLog(Write(name, 300));
    EXPECT_EQ(contents.dropped, "") << name;
    ASSERT_EQ(contents.entries.size(), 300u) << name;
    const OpLogEntry& e = contents.entries[4];
    EXPECT_EQ(e.idx, 4u);
    EXPECT_EQ(e.op, "GET");
    EXPECT_EQ(e.client_id, "host:3");
    EXPECT_EQ(e.bytes, 1004u);
    EXPECT_EQ(e.start_ns, kT0 + 4'000'000);
    EXPECT_EQ(e.end_ns, kT0 + 4'250'000);
    EXPECT_EQ(e.duration_ns, 250'000u);
    EXPECT_EQ(RelativeName(e), "train/f4");
  }
}

TEST(OpLogReader, ACutZstdLogReadsUpToItsLastWholeLine) {
  const std::string path = Write("cut.tsv.zst", 3000);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  const std::string cut = testing::TempDir() + "/cut2.tsv.zst";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const auto contents = ReadOpLog(cut);
  EXPECT_NE(contents.dropped, "");
  EXPECT_GT(contents.entries.size(), 10u);
  EXPECT_LT(contents.entries.size(), 3000u);
  for (size_t i = 0; i < contents.entries.size(); ++i) EXPECT_EQ(contents.entries[i].idx, i);
}

TEST(OpLogReader, Sai3BenchNamesAndBadLines) {
  const std::string path = testing::TempDir() + "/sai3.tsv";
  std::ofstream(path) << "idx\tthread\top\tclient_id\tn_objects\tbytes\tendpoint\tfile\terror\t"
                         "start\tfirst_byte\tend\tduration_ns\n"
                         "0\t1\tSTAT\tagent\t1\t0\tfile:///x/\tk/a.bin\t\t2026-01-01T00:00:00Z\t\t"
                         "2026-01-01T00:00:00.5+00:00\t500000000\n";
  const auto contents = ReadOpLog(path);
  ASSERT_EQ(contents.entries.size(), 1u);
  EXPECT_EQ(contents.entries[0].op, "HEAD");
  EXPECT_EQ(RelativeName(contents.entries[0]), "k/a.bin");
  EXPECT_EQ(contents.entries[0].end_ns - contents.entries[0].start_ns, 500'000'000);

  std::ofstream(path, std::ios::app)
      << "1\t1\tGET\tagent\t1\tmany\tfile:///x/\tk\t\t2026-01-01T00:00:00Z\t\t"
         "2026-01-01T00:00:01Z\t1\n";
  try {
    ReadOpLog(path);
    FAIL() << "a bad bytes field was read";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3, column 'bytes'"), std::string::npos) << e.what();
  }
  std::ofstream(path) << "{\"kind\": \"run\"}\n";
  EXPECT_THROW(ReadOpLog(path), UsageError);
}

TEST(OpLogReader, UtcTimes) {
  int64_t ns = 0;
  ASSERT_TRUE(ParseUtcNanos("1970-01-01T00:00:01.5Z", ns));
  EXPECT_EQ(ns, 1'500'000'000);
  ASSERT_TRUE(ParseUtcNanos("2025-11-25T03:20:01.000000123Z", ns));
  EXPECT_EQ(ns, kT0);
  EXPECT_FALSE(ParseUtcNanos("2025-11-25 03:20:01Z", ns));
  EXPECT_FALSE(ParseUtcNanos("2025-11-25T03:20:01.Z", ns));
  EXPECT_FALSE(ParseUtcNanos("2025-11-25T03:20:01+02:00", ns));
}

TEST(ReplayPlan, StartOrderEndpointsOpsAndTarget) {
  std::vector<OpLogEntry> entries(4);
  const char* endpoints[] = {"/a/", "/b/", "/a/", "/a/"};
  const char* ops[] = {"GET", "PUT", "GET", "HEAD"};
  const int64_t starts[] = {30, 10, 20, 40};
  for (int i = 0; i < 4; ++i) {
    entries[i].idx = static_cast<uint64_t>(i);
    entries[i].op = ops[i];
    entries[i].endpoint = endpoints[i];
    entries[i].file = std::string(endpoints[i]) + "f" + std::to_string(i % 2);
    entries[i].start_ns = starts[i];
    entries[i].end_ns = starts[i] + 5;
    entries[i].bytes = 100;
  }
  const auto plan = ops::PlanReplay(entries, {}, "", "test");
  ASSERT_EQ(plan.ops.size(), 4u);
  EXPECT_EQ(plan.ops[0].op, ops::ReplayOp::kPut);  // started first
  EXPECT_EQ(plan.ops[1].offset_ns, 10);
  EXPECT_EQ(plan.storages.size(), 2u);
  EXPECT_TRUE(plan.writes);
  EXPECT_EQ(plan.last_end_ns, 45);

  const auto gets = ops::PlanReplay(entries, {ops::ReplayOp::kGet}, "/elsewhere", "test");
  EXPECT_EQ(gets.ops.size(), 2u);
  EXPECT_EQ(gets.dropped_by_ops, 2u);
  ASSERT_EQ(gets.storages.size(), 1u);
  EXPECT_EQ(gets.storages[0].uri, "/elsewhere");
  EXPECT_EQ(gets.storages[0].objects, (std::vector<std::string>{"f0"}));
  EXPECT_FALSE(gets.writes);
  EXPECT_THROW(ops::PlanReplay(entries, {ops::ReplayOp::kDelete}, "", "test"), UsageError);

  // An op on an object waits for the last PUT or DELETE of it before it: a GET after a PUT.
  entries[3].endpoint = "/b/";
  entries[3].file = "/b/f1";
  const auto chained = ops::PlanReplay(entries, {}, "", "test");
  EXPECT_EQ(chained.ops[0].after, -1);  // the PUT of /b/f1
  EXPECT_EQ(chained.ops[3].after, 0);   // the HEAD of /b/f1, after it
  EXPECT_EQ(chained.ops[1].after, -1);
}

}  // namespace
}  // namespace trainbench::metrics
