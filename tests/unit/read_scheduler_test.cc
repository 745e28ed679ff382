// The read scheduler's loop over every engine: reads run at most prefetch_size batches
// beyond the batch an accelerator works on and resume when it advances; every sample's
// exact bytes are read in transfer_size pieces; every read that happened reaches the
// Darshan-style counters; a file shorter than its index fails naming file and offset.
// The memory engine completes reads newest first, so the loop meets them out of order.
#include "loader/read_scheduler.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "common/clock.h"
#include "loader/sample_reads.h"
#include "storage/memory_storage.h"
#include "storage/posix_storage.h"
#include "storage/read_engines.h"

namespace trainbench::loader {
namespace {

namespace fs = std::filesystem;

struct EngineCase {
  const char* engine;
  unsigned depth;
  bool on_disk;
};

class ReadSchedulerTest : public ::testing::TestWithParam<EngineCase> {
 protected:
  void SetUp() override {
    if (GetParam().on_disk) {
      root_ = fs::temp_directory_path() / ("tb-read-scheduler-" + std::to_string(::getpid()) + "-" +
                                           GetParam().engine + std::to_string(GetParam().depth));
      fs::create_directories(root_);
      storage_ = std::make_unique<storage::PosixStorage>(root_.string());
    } else {
      storage_ = std::make_unique<storage::MemoryStorage>();
    }
    auto out = storage_->Create("f.bin");
    const std::vector<unsigned char> bytes(kSamples * kSampleBytes, 7);
    out->Append(bytes.data(), bytes.size());
    out->Commit();
    formats::WrittenFile f;
    f.path = "f.bin";
    f.size_bytes = bytes.size();
    f.num_samples = kSamples;
    for (uint64_t i = 0; i < kSamples; ++i) f.samples.push_back({i * kSampleBytes, kSampleBytes});
    file_ = f;
    plans_.resize(1);
    for (uint32_t i = 0; i < kSamples; ++i) plans_[0].push_back({0, i});
    io_ = std::make_unique<metrics::IoCharacterizer>(sizes_);
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }

  std::unique_ptr<storage::ReadEngine> Engine() {
    storage::ReadEngineOptions o;
    o.engine = GetParam().engine;
    return storage::OpenReadEngine(*storage_, storage::ShareNames({"f.bin"}), o);
  }

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
    o.threads = 2;
    o.depth = GetParam().depth;
    o.transfer_size = 64;  // two pieces per 100-byte sample
    o.reads_per_accelerator = 3;
    o.prefetch_batches = 2;
    return o;
  }

  static constexpr uint64_t kSamples = 100, kSampleBytes = 100, kBatch = 10;
  fs::path root_;
  std::unique_ptr<storage::Storage> storage_;
  // The run's table of the one file, made from file_ as a test has changed it.
  const dataset::FileTable& Files() {
    files_ = dataset::FileTable();
    files_.Add(file_);
    return files_;
  }

  formats::WrittenFile file_;
  dataset::FileTable files_;
  std::vector<uint64_t> sizes_{kSamples * kSampleBytes};
  std::vector<std::vector<SampleRef>> plans_;
  std::unique_ptr<metrics::IoCharacterizer> io_;
};

TEST_P(ReadSchedulerTest, ReadsStayWithinThePrefetchWindow) {
  auto engine = Engine();
  {
    ReadScheduler r(*engine, &Files(), Options(), 1, io_.get());
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
  // The counters saw exactly those reads: 64 + 36 bytes per sample, each file byte once.
  const auto c = io_->Counters();
  EXPECT_EQ(c.reads, 200u);
  EXPECT_EQ(c.bytes_read, kSamples * kSampleBytes);
  EXPECT_EQ(c.max_read_bytes, 64u);
  EXPECT_EQ(c.files_read, 1u);
  EXPECT_EQ(c.files_reread, 0u);
}

TEST_P(ReadSchedulerTest, ShortFileFailsNamingFileAndOffset) {
  if (std::string(GetParam().engine) == "null") GTEST_SKIP() << "null reads no file";
  file_.samples[50].length = 100000;  // the index says more than the file holds
  auto engine = Engine();
  ReadScheduler r(*engine, &Files(), Options(), 1, io_.get());
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

// A file read a unit at a time (Parquet row groups): units of 20 samples, each reading two
// separate ranges (two of its three column chunks). The plan visits units 0, 1, 0 (a
// unit left and re-entered is read again, as DLIO's one-group cache does), so unit 0 is
// read twice; every other sample moves nothing.
TEST_P(ReadSchedulerTest, UnitsAreReadOnceForTheirConsecutiveSamples) {
  formats::WrittenFile& f = file_;
  f.samples.clear();
  for (uint64_t u = 0; u < 5; ++u)
    f.units.push_back({u * 20, 20, {{u * 2000, 300}, {u * 2000 + 1000, 130}}});
  plans_[0].clear();
  for (uint32_t i = 0; i < 20; ++i) plans_[0].push_back({0, i});   // unit 0
  for (uint32_t i = 20; i < 40; ++i) plans_[0].push_back({0, i});  // unit 1
  for (uint32_t i = 0; i < 10; ++i) plans_[0].push_back({0, i});   // unit 0 again
  const dataset::FileTable& files = Files();
  EXPECT_EQ(ReadOf(files, plans_[0], 0, 0).Bytes(), 430u);
  EXPECT_EQ(ReadOf(files, plans_[0], 1, 0).Count(), 0u);
  EXPECT_EQ(ReadOf(files, plans_[0], 20, 0).unit, &files.Units(0)[1]);
  EXPECT_EQ(ReadOf(files, plans_[0], 40, 0).unit, &files.Units(0)[0]);
  EXPECT_EQ(UnitOf(files.Units(0), 99), 4u);
  // The samples one read serves, claimed together: up to the unit's end or the limit.
  EXPECT_EQ(SameUnitRun(files, plans_[0], 0, 50, 0), 20u);
  EXPECT_EQ(SameUnitRun(files, plans_[0], 5, 12, 0), 7u);
  EXPECT_EQ(SameUnitRun(files, plans_[0], 20, 50, 0), 20u);
  EXPECT_EQ(SameUnitRun(files, plans_[0], 40, 50, 0), 10u);
  auto engine = Engine();
  {
    ReadScheduler r(*engine, &Files(), Options(), 1, io_.get());
    r.StartPhase(&plans_, 0, kBatch);
    for (uint64_t step = 0; step < 5; ++step) r.Advance(0, step);
    r.WakeReaders();
    EXPECT_EQ(ReadUpTo(r, 3 * 430), 3 * 430u);
    for (uint64_t step = 0; step < 5; ++step) EXPECT_TRUE(r.BatchReady(0, step)) << step;
    r.Drain();
    EXPECT_FALSE(r.Error());
    // 300 bytes in pieces of 64 (5) and 130 (3), three times.
    EXPECT_EQ(r.Reads(), 3 * (5 + 3u));
  }
  const auto c = io_->Counters();
  EXPECT_EQ(c.reads, 24u);
  EXPECT_EQ(c.bytes_read, 3 * 430u);
  EXPECT_EQ(c.max_read_bytes, 64u);
}

// reader.preprocess_time: each sample stays claimed for its preprocessing after its bytes
// are in, so with 2 samples in flight and 10 ms each the 100 samples take at least 0.5 s and
// the first batch of 10 is ready no sooner than 50 ms in; every sample is drawn once, for
// accelerator 0 in the first phase, and a batch is ready as of its samples' deadlines.
TEST_P(ReadSchedulerTest, PreprocessingHoldsEachSampleInItsWorker) {
  std::mutex mutex;
  std::set<uint64_t> drawn;
  bool other = false;
  ReaderOptions o = Options();
  o.reads_per_accelerator = 2;
  o.preprocess_s = [&](size_t accelerator, uint64_t phase, uint64_t index) {
    std::lock_guard<std::mutex> lock(mutex);
    other = other || accelerator != 0 || phase != 1 || !drawn.insert(index).second;
    return 0.01;
  };
  auto engine = Engine();
  ReadScheduler r(*engine, &Files(), o, 1, io_.get());
  const double start = NowSeconds();
  r.StartPhase(&plans_, 0, kBatch);
  r.Advance(0, kSamples / kBatch - 1);
  r.WakeReaders();
  const double until = start + 10;
  while (!r.BatchReady(0, kSamples / kBatch - 1) && NowSeconds() < until)
    r.Wait(NowSeconds() + 0.01);
  const double end = NowSeconds();
  r.Drain();
  EXPECT_FALSE(r.Error());
  ASSERT_TRUE(r.BatchReady(0, kSamples / kBatch - 1));
  EXPECT_GE(end - start, kSamples * 0.01 / 2 - 1e-3);
  EXPECT_GE(r.BatchReadyTime(0, 0) - start, kBatch * 0.01 / 2 - 1e-3);
  EXPECT_LE(r.BatchReadyTime(0, 0), r.BatchReadyTime(0, 1));
  std::lock_guard<std::mutex> lock(mutex);
  EXPECT_FALSE(other);
  EXPECT_EQ(drawn.size(), kSamples);
}

// Instant steps (no compute: a step ends as its batch is ready): nobody calls Advance, the
// loops move the window as batches become ready, and it still holds: with sample 15 held
// back (a long preprocessing), batch 1 is not ready, so reads stop at batch 1 + 1 + the 2
// prefetched batches (40 samples) until it is, then run to the plan's end. Wait sleeps
// through batches 0..8 and returns for the phase's last, batch 9.
TEST_P(ReadSchedulerTest, InstantStepsMoveTheWindowAsBatchesAreRead) {
  constexpr double kHold = 1.0;
  ReaderOptions o = Options();
  o.preprocess_s = [](size_t, uint64_t, uint64_t index) { return index == 15 ? kHold : 0.0; };
  auto engine = Engine();
  ReadScheduler r(*engine, &Files(), o, 1, io_.get());
  const double start = NowSeconds();
  r.StartPhase(&plans_, 0, kBatch, false, kSamples / kBatch);
  const uint64_t read = ReadUpTo(r, 40 * kSampleBytes);
  const bool batch1_ready = r.BatchReady(0, 1);
  if (NowSeconds() - start >= kHold) GTEST_SKIP() << "the host was too slow to see the window";
  EXPECT_EQ(read, 40 * kSampleBytes);
  EXPECT_TRUE(r.BatchReady(0, 0));
  EXPECT_FALSE(batch1_ready);
  r.Wait(start + 30);
  EXPECT_TRUE(r.BatchReady(0, kSamples / kBatch - 1)) << "Wait woke before the last batch";
  EXPECT_GE(NowSeconds() - start, kHold - 1e-3);
  EXPECT_EQ(ReadUpTo(r, kSamples * kSampleBytes), kSamples * kSampleBytes);
  r.Drain();
  EXPECT_FALSE(r.Error());
}

INSTANTIATE_TEST_SUITE_P(
    Engines, ReadSchedulerTest,
    ::testing::Values(EngineCase{"pread", 1, true}, EngineCase{"pread", 4, true},
                      EngineCase{"uring", 4, true}, EngineCase{"memory", 4, false},
                      EngineCase{"null", 4, false}),
    [](const ::testing::TestParamInfo<EngineCase>& c) {
      return std::string(c.param.engine) + "_depth" + std::to_string(c.param.depth);
    });

// The constant-time run of a sequential plan (no sample shuffle) equals the walk, for every
// entry and limit, over plans of both file-access modes, with units that files and
// accelerators' slices cut in the middle (45 samples in units of 20, 20, 5).
TEST(SameUnitRunTest, SequentialPlansGiveTheWalksRuns) {
  dataset::FileTable files;
  for (int i = 0; i < 3; ++i) {
    formats::WrittenFile f;
    f.path = "f" + std::to_string(i);
    f.num_samples = 45;
    for (uint64_t first : {0, 20, 40})
      f.units.push_back({first, std::min<uint64_t>(20, 45 - first), {{first * 10, 100}}});
    files.Add(std::move(f));
  }
  const std::vector<uint32_t> counts(files.size(), 45);
  for (auto access : {config::FileAccess::kMulti, config::FileAccess::kShared}) {
    for (uint64_t accelerators : {1, 2, 3}) {
      SamplerOptions o;
      o.accelerators = accelerators;
      o.batch_size = 7;
      o.file_access = access;
      o.file_shuffle = config::Shuffle::kSeed;
      ASSERT_TRUE(SequentialWithinFiles(o));
      const auto plans = PlanEpoch(counts, o, 1, 0, accelerators);
      for (const auto& plan : plans) {
        for (uint64_t i = 0; i < plan.size(); ++i) {
          for (uint64_t limit : {i + 1, i + 7, static_cast<uint64_t>(plan.size())}) {
            if (limit > plan.size()) continue;
            EXPECT_EQ(SameUnitRun(files, plan, i, limit, 0, true),
                      SameUnitRun(files, plan, i, limit, 0, false))
                << "entry " << i << " limit " << limit << " of " << accelerators;
          }
        }
      }
    }
  }
  SamplerOptions shuffled;
  shuffled.sample_shuffle = config::Shuffle::kSeed;
  EXPECT_FALSE(SequentialWithinFiles(shuffled));
}

TEST(ReadEngines, UnavailableEngineIsAUsageErrorNamingIt) {
  storage::MemoryStorage memory;
  storage::ReadEngineOptions o;
  o.engine = "uring";
  try {
    storage::OpenReadEngine(memory, storage::ShareNames({"x"}), o);
    FAIL() << "uring opened on memory storage";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("--io-engine uring"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace trainbench::loader
