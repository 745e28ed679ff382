// The step loop's timeline: with batches in memory (no reads), a barrier makes every
// step last as long as its slowest accelerator, so AU is exactly sum(compute) /
// (accelerators x sum over steps of the slowest draw); without it, AU is 100%.
#include "sim/step_loop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "common/clock.h"
#include "common/random.h"
#include "dataset/file_table.h"
#include "sim/compute_time.h"
#include "storage/memory_storage.h"
#include "storage/read_engines.h"

namespace trainbench::sim {
namespace {

struct PhaseFixture {
  std::vector<std::vector<loader::SampleRef>> plans;
  PhaseSpec spec;
  PhaseFixture(size_t accelerators, uint64_t steps, bool barrier) : plans(accelerators) {
    for (auto& p : plans) p.resize(steps * 2);
    spec.plans = &plans;
    spec.batch_size = 2;
    spec.steps = steps;
    spec.io = false;
    spec.barrier = barrier;
    spec.compute.kind = config::TimeDistribution::Kind::kUniform;
    spec.compute.min = 0.001;
    spec.compute.max = 0.006;
    spec.seed = 77;
    spec.first_accelerator = 3;
    spec.exclude_start_steps = 0;
  }
};

TEST(StepLoop, BarrierMakesEveryStepWaitForTheSlowest) {
  PhaseFixture s(3, 6, true);
  metrics::Histogram wait;
  const auto out = RunPhase(s.spec, nullptr, wait);
  ASSERT_TRUE(out.record.complete);
  EXPECT_EQ(out.record.steps, 6u);
  EXPECT_EQ(out.record.samples, 3u * 6 * 2);

  // The same draws, from the same seeds.
  std::vector<ComputeTime> models;
  for (size_t a = 0; a < 3; ++a) models.emplace_back(s.spec.compute, Mix(77, 3 + a));
  double compute = 0, elapsed = 0;
  for (int step = 0; step < 6; ++step) {
    double slowest = 0;
    for (auto& m : models) {
      const double t = m.Draw();
      compute += t;
      slowest = std::max(slowest, t);
    }
    elapsed += 3 * slowest;
  }
  EXPECT_NEAR(out.record.au_percentage, 100 * compute / elapsed, 1e-6);
  EXPECT_LT(out.record.au_percentage, 99.0);  // uniform draws differ: someone always waits
  EXPECT_NEAR(out.record.compute_s, compute, 1e-9);
  EXPECT_GE(out.record.duration_s, elapsed / 3 - 1e-3);  // wall time follows the timeline
  EXPECT_EQ(wait.Count(), 18u);
}

TEST(StepLoop, WithoutBarrierEveryAcceleratorComputesAllTheTime) {
  PhaseFixture s(4, 5, false);
  metrics::Histogram wait;
  const auto out = RunPhase(s.spec, nullptr, wait);
  EXPECT_NEAR(out.record.au_percentage, 100, 1e-6);
  EXPECT_EQ(out.record.steps, 5u);
}

// Progress at the phase's first instant has no interval to take rates over: it says so
// (measured false, figures 0) rather than dividing by a near-zero time (issue 34, point 13).
TEST(StepLoop, ProgressHasNoRatesBeforeAStepAndAnInterval) {
  PhaseFixture s(2, 6, false);
  s.spec.compute = {};
  s.spec.compute.mean = 0.05;  // 6 steps of 50 ms: 0.3 s, past kMinRateInterval
  std::vector<Progress> seen;
  s.spec.progress = [&](const Progress& p) { seen.push_back(p); };
  metrics::Histogram wait;
  RunPhase(s.spec, nullptr, wait);
  ASSERT_GE(seen.size(), 2u);
  EXPECT_FALSE(seen.front().measured);
  EXPECT_EQ(seen.front().samples_per_second, 0);
  EXPECT_EQ(seen.front().au_percentage, 0);
  EXPECT_TRUE(seen.back().measured);
  // 24 samples in at least 0.3 s.
  EXPECT_GT(seen.back().samples_per_second, 0);
  EXPECT_LE(seen.back().samples_per_second, 24 / 0.3 + 1e-6);
  EXPECT_GT(seen.back().au_percentage, 0);
}

TEST(StepLoop, CheckpointStepsHoldEveryoneAndCountAsNotComputing) {
  PhaseFixture s(2, 4, false);
  s.spec.compute = {};  // constant 0 would make AU 0; use 2 ms
  s.spec.compute.mean = 0.002;
  std::vector<uint64_t> taken;
  double checkpoint_s = 0;
  s.spec.sync_step = [&](uint64_t step, bool at_barrier) {
    if (step != 1) return false;
    if (at_barrier) {
      taken.push_back(step);
      const double t0 = NowSeconds();
      while (NowSeconds() < t0 + 0.008) {  // an 8 ms checkpoint
      }
      checkpoint_s = NowSeconds() - t0;
    }
    return true;
  };
  metrics::Histogram wait;
  const auto out = RunPhase(s.spec, nullptr, wait);
  EXPECT_EQ(taken, std::vector<uint64_t>{1});
  // 4 steps x 2 ms of compute; the checkpoint (about 8 ms) adds to the elapsed time
  // (about 50%).
  EXPECT_NEAR(out.record.au_percentage, 100 * 0.008 / (0.008 + checkpoint_s), 1.0);
  EXPECT_LT(out.record.au_percentage, 60);
}

// Steps with no compute time end as their batches are read: the reads move the prefetch
// window themselves and the loop counts the steps on its own time (StartPhase's
// instant_steps). Every step is still taken, in order, once, with its wait, and the phase
// ends as its last batch is read, with or without a barrier (one accelerator).
TEST(StepLoop, StepsWithoutComputeAreAllCountedAsTheirBatchesAreRead) {
  constexpr uint64_t kSamples = 400, kBytes = 100, kBatch = 4, kSteps = kSamples / kBatch;
  storage::MemoryStorage memory;
  auto out_file = memory.Create("f.bin");
  const std::vector<unsigned char> bytes(kSamples * kBytes, 1);
  out_file->Append(bytes.data(), bytes.size());
  out_file->Commit();
  formats::WrittenFile f;
  f.path = "f.bin";
  f.size_bytes = bytes.size();
  f.num_samples = kSamples;
  for (uint64_t i = 0; i < kSamples; ++i) f.samples.push_back({i * kBytes, kBytes});
  dataset::FileTable files;
  files.Add(f);
  auto engine = storage::OpenReadEngine(memory, storage::ShareNames({"f.bin"}), {});
  for (const bool barrier : {false, true}) {
    loader::ReaderOptions o;
    o.threads = 2;
    o.reads_per_accelerator = 2;
    o.prefetch_batches = 1;
    loader::ReadScheduler reads(*engine, &files, o, 1, nullptr);
    PhaseFixture s(1, kSteps, barrier);
    s.plans[0].resize(kSamples);
    for (uint32_t i = 0; i < kSamples; ++i) s.plans[0][i] = {0, i};
    s.spec.batch_size = kBatch;
    s.spec.io = true;
    s.spec.compute = {};
    std::vector<uint64_t> taken;
    s.spec.on_batch = [&](size_t, uint64_t step) { taken.push_back(step); };
    metrics::Histogram wait;
    const auto out = RunPhase(s.spec, &reads, wait);
    ASSERT_TRUE(out.record.complete) << barrier;
    EXPECT_EQ(out.record.steps, kSteps);
    EXPECT_EQ(out.record.samples, kSamples);
    EXPECT_EQ(out.record.bytes_read, kSamples * kBytes);
    EXPECT_EQ(wait.Count(), kSteps);
    ASSERT_EQ(taken.size(), kSteps);
    for (uint64_t i = 0; i < kSteps; ++i) EXPECT_EQ(taken[i], i);
    EXPECT_EQ(out.record.au_percentage, 0);
    EXPECT_LT(out.record.duration_s, 1.0);  // the last batch wakes the loop at once
  }
}

}  // namespace
}  // namespace trainbench::sim
