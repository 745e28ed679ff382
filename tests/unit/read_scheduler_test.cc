// The read scheduler's bounds: reads run at most prefetch_size batches beyond the batch
// an accelerator works on, and resume when it advances; every sample's exact bytes are
// read; a file shorter than its index fails naming the file and offset. Both engines.
#include "loader/read_scheduler.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "common/clock.h"
#include "storage/posix_storage.h"

namespace trainbench::loader {
namespace {

namespace fs = std::filesystem;

class ReadSchedulerTest : public ::testing::TestWithParam<ReadEngine> {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tb-read-scheduler-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(static_cast<int>(GetParam())));
    fs::create_directories(root_);
    storage_ = std::make_unique<storage::PosixStorage>(root_.string());
    auto out = storage_->Create("f.bin");
    const std::vector<unsigned char> bytes(kSamples * kSampleBytes, 7);
    out->Append(bytes.data(), bytes.size());
    out->Commit();
    formats::WrittenFile f;
    f.path = "f.bin";
    f.size_bytes = bytes.size();
    f.num_samples = kSamples;
    for (uint64_t i = 0; i < kSamples; ++i) f.samples.push_back({i * kSampleBytes, kSampleBytes});
    files_.push_back(f);
    plans_.resize(1);
    for (uint32_t i = 0; i < kSamples; ++i) plans_[0].push_back({0, i});
  }
  void TearDown() override { fs::remove_all(root_); }

  // Waits for `expected` bytes to be read (at most 5 s), then a little longer, and
  // returns what was read: more than expected means the window did not hold.
  static uint64_t ReadUpTo(const ReadScheduler& r, uint64_t expected) {
    const double until = NowSeconds() + 5;
    while (r.BytesRead() < expected && NowSeconds() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    return r.BytesRead();
  }

  ReaderOptions Options() const {
    ReaderOptions o;
    o.engine = GetParam();
    o.threads = 2;
    o.depth = 4;
    o.transfer_size = 64;  // two pieces per 100-byte sample
    o.reads_per_accelerator = 3;
    o.prefetch_batches = 2;
    return o;
  }

  static constexpr uint64_t kSamples = 100, kSampleBytes = 100, kBatch = 10;
  fs::path root_;
  std::unique_ptr<storage::PosixStorage> storage_;
  std::vector<formats::WrittenFile> files_;
  std::vector<std::vector<SampleRef>> plans_;
};

TEST_P(ReadSchedulerTest, ReadsStayWithinThePrefetchWindow) {
  ReadScheduler r(*storage_, &files_, Options(), 1);
  r.StartPhase(&plans_, 0, kBatch);
  // Batch 0 plus 2 prefetched batches: 30 samples.
  EXPECT_EQ(ReadUpTo(r, 30 * kSampleBytes), 30 * kSampleBytes);
  EXPECT_TRUE(r.BatchReady(0, 0));
  EXPECT_TRUE(r.BatchReady(0, 2));
  EXPECT_FALSE(r.BatchReady(0, 3));
  EXPECT_GT(r.BatchReadyTime(0, 0), 0);
  r.Advance(0, 5);
  r.WakeReaders();
  EXPECT_EQ(ReadUpTo(r, 80 * kSampleBytes), 80 * kSampleBytes);  // up to batch 5 + 2
  r.Advance(0, 9);
  r.WakeReaders();
  EXPECT_EQ(ReadUpTo(r, 100 * kSampleBytes), 100 * kSampleBytes);  // the plan's end
  r.Drain();
  EXPECT_FALSE(r.Error());
  EXPECT_EQ(r.Reads(), 200u);  // two pieces each
  EXPECT_EQ(r.Latencies().Count(), 200u);
}

TEST_P(ReadSchedulerTest, ShortFileFailsNamingFileAndOffset) {
  files_[0].samples[50].length = 100000;  // the index says more than the file holds
  ReadScheduler r(*storage_, &files_, Options(), 1);
  r.StartPhase(&plans_, 0, kBatch);
  for (uint64_t step = 0; step < 10; ++step) r.Advance(0, step);
  r.WakeReaders();
  const double until = NowSeconds() + 5;
  while (!r.Error() && NowSeconds() < until) r.Wait(NowSeconds() + 0.01);
  r.Drain();
  ASSERT_TRUE(r.Error());
  EXPECT_NE(r.Error()->find("short read at offset 10000 of"), std::string::npos) << *r.Error();
  EXPECT_NE(r.Error()->find("f.bin"), std::string::npos) << *r.Error();
}

INSTANTIATE_TEST_SUITE_P(Engines, ReadSchedulerTest,
                         ::testing::Values(ReadEngine::kPread, ReadEngine::kUring),
                         [](const ::testing::TestParamInfo<ReadEngine>& engine) {
                           return std::string(engine.param == ReadEngine::kPread ? "pread"
                                                                                 : "uring");
                         });

}  // namespace
}  // namespace trainbench::loader
