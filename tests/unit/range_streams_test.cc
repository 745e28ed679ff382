// storage's public face for downloaders: RangeStreams hands each stream's bytes of the range
// asked for to the receiver, in order, with the answer's head; a stopped receiver ends the
// transfer as kAborted; a refused connection ends as kUnreachable, which stage's
// ClassifyFailure turns into a hard failure (a mirror demoted at once). HttpHead says the same.
#include "storage/range_streams.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "common/clock.h"
#include "stage/fetch_sources.h"
#include "storage/http_head.h"

namespace trainbench::storage {
namespace {

namespace fs = std::filesystem;

class RangeStreamsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tb_range_streams_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    path_ = dir_ / "object.bin";
    std::ofstream out(path_, std::ios::binary);
    for (int i = 0; i < 100000; ++i) out.put(static_cast<char>(i % 251));
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `gets` (one per stream) to their ends; bounded at 10 s.
  std::map<unsigned, TransferEnd> RunAll(RangeStreams& streams, const std::vector<RangeGet>& gets) {
    for (unsigned i = 0; i < gets.size(); ++i) streams.Start(i, gets[i]);
    std::map<unsigned, TransferEnd> ends;
    const double deadline = NowSeconds() + 10;
    while (ends.size() < gets.size() && NowSeconds() < deadline) {
      streams.PerformAndReap([&](unsigned i, const TransferEnd& end) { ends[i] = end; });
      streams.Poll(0.05);
    }
    return ends;
  }

  fs::path dir_, path_;
};

TEST_F(RangeStreamsTest, HandsEachStreamItsRangeInOrder) {
  std::map<unsigned, std::string> bodies;
  std::map<unsigned, RangeReply> replies;
  RangeStreams streams(
      2,
      [&](unsigned i, const RangeReply& reply, const char* data, size_t n) {
        bodies[i].append(data, n);
        replies[i] = reply;
        return true;
      },
      "trainbench-test");
  RangeGet a, b;
  a.url = b.url = "file://" + path_.string();
  a.offset = 10;
  a.length = 1000;
  b.offset = 99000;
  b.length = 1000;
  const auto ends = RunAll(streams, {a, b});
  ASSERT_EQ(ends.size(), 2u);
  for (unsigned i = 0; i < 2; ++i) {
    EXPECT_EQ(ends.at(i).fault, TransferFault::kNone) << ends.at(i).error;
    EXPECT_TRUE(replies[i].file);
    EXPECT_FALSE(streams.Active(i));
  }
  ASSERT_EQ(bodies[0].size(), 1000u);
  ASSERT_EQ(bodies[1].size(), 1000u);
  for (size_t k = 0; k < 1000; ++k) {
    EXPECT_EQ(static_cast<unsigned char>(bodies[0][k]), (10 + k) % 251) << k;
    EXPECT_EQ(static_cast<unsigned char>(bodies[1][k]), (99000 + k) % 251) << k;
  }
}

TEST_F(RangeStreamsTest, AReceiverThatStopsEndsTheTransferAsAborted) {
  RangeStreams streams(
      1, [](unsigned, const RangeReply&, const char*, size_t) { return false; }, "trainbench-test");
  RangeGet get;
  get.url = "file://" + path_.string();
  get.length = 50000;
  const auto ends = RunAll(streams, {get});
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends.at(0).fault, TransferFault::kAborted);
  EXPECT_FALSE(ends.at(0).error.empty());
}

TEST_F(RangeStreamsTest, ARefusedConnectionIsUnreachableAndDemotesAMirrorAtOnce) {
  RangeStreams streams(
      1, [](unsigned, const RangeReply&, const char*, size_t) { return true; }, "trainbench-test");
  RangeGet get;
  get.url = "http://127.0.0.1:1/object.bin";  // port 1: nothing listens
  get.length = 100;
  const auto ends = RunAll(streams, {get});
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends.at(0).fault, TransferFault::kUnreachable);
  EXPECT_NE(ends.at(0).error.find("(curl 7)"), std::string::npos) << ends.at(0).error;
  const stage::AttemptFailure f = stage::ClassifyFailure(ends.at(0));
  EXPECT_TRUE(f.hard);
  EXPECT_TRUE(f.retryable);  // the origin is tried again: it may come back

  HttpHead head("trainbench-test");
  const HeadReply reply = head.Head("http://127.0.0.1:1/object.bin");
  EXPECT_EQ(reply.end.fault, TransferFault::kUnreachable);
  EXPECT_TRUE(reply.headers.empty());
}

TEST(ClassifyFailureTest, StatusesAndFaultsSortAsStageRetriesThem) {
  TransferEnd end;
  end.status = 503;
  EXPECT_TRUE(stage::ClassifyFailure(end).retryable);
  EXPECT_FALSE(stage::ClassifyFailure(end).hard);
  end.status = 404;
  EXPECT_FALSE(stage::ClassifyFailure(end).retryable);
  EXPECT_TRUE(stage::ClassifyFailure(end).hard);
  end.status = 0;
  end.fault = TransferFault::kBroken;
  end.error = "Operation timed out (curl 28)";
  EXPECT_TRUE(stage::ClassifyFailure(end).retryable);
  EXPECT_FALSE(stage::ClassifyFailure(end).hard);
  EXPECT_EQ(stage::ClassifyFailure(end).reason, end.error);
  end.fault = TransferFault::kOther;
  EXPECT_FALSE(stage::ClassifyFailure(end).retryable);
}

}  // namespace
}  // namespace trainbench::storage
