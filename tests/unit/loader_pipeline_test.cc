// replay --train-results' simulated loader: batches read by the training's workers with its
// reads in flight and prefetch depth, steps that compute once their batch is ready. It must
// see what the means cannot: the first batch, read with nothing ahead, and the stalls of
// batches slower than the compute when the loader could bank only two ahead.
#include "ops/loader_pipeline.h"

#include <gtest/gtest.h>

#include <vector>

#include "ops/step_io_estimate.h"

namespace trainbench::ops {
namespace {

// `batches` batches, each of `per_batch` GETs of `seconds[b % seconds.size()]` each.
LoaderRun Batches(size_t batches, size_t per_batch, const std::vector<float>& seconds) {
  LoaderRun run;
  for (size_t b = 0; b < batches; ++b) {
    for (size_t i = 0; i < per_batch; ++i) run.seconds.push_back(seconds[b % seconds.size()]);
    run.ends.push_back(run.seconds.size());
  }
  return run;
}

LoaderShape OneWorker(double compute_s) {
  LoaderShape s;
  s.workers = 1;
  s.io_depth = 1;
  s.compute_s = compute_s;
  return s;
}

TEST(LoaderPipelineTest, FastStorageLosesTheFirstBatchAlone) {
  // 4 GETs of 1 ms a batch against 100 ms of compute: the first step waits 4 ms, none after.
  const PipelineEstimate p = SimulateLoader(Batches(10, 4, {0.001f}), OneWorker(0.1));
  EXPECT_EQ(p.batches, 10u);
  EXPECT_EQ(p.gets, 40u);
  EXPECT_NEAR(p.first_batch_wait_s, 0.004, 1e-6);
  EXPECT_NEAR(p.seconds, 0.004 + 10 * 0.1, 1e-6);
  EXPECT_NEAR(p.lost_s, p.first_batch_wait_s / 10, 1e-6);
  EXPECT_NEAR(p.images_per_s, 40 / p.seconds, 1e-6);
}

TEST(LoaderPipelineTest, BatchesAsSlowAsTheComputeOnAverageStallWhereTheMeansSeeNone) {
  // Runs of 4 batches at 20 ms then 4 at 180 ms: 100 ms on average, the compute's 100 ms. The
  // fast run banks two batches (the prefetch depth), not four; the slow run drains them and
  // its steps wait.
  const LoaderRun run =
      Batches(32, 4, {0.005f, 0.005f, 0.005f, 0.005f, 0.045f, 0.045f, 0.045f, 0.045f});
  const PipelineEstimate p = SimulateLoader(run, OneWorker(0.1));
  EXPECT_NEAR(p.load_s, 0.1, 1e-6);
  EXPECT_GT(p.lost_s, 0.02) << "stalls beyond the first batch's " << p.first_batch_wait_s / 32;

  // The means over the same GETs: 128 images in 3.2 s, 100 ms a batch: nothing lost.
  TrainingShape t;
  t.batch_size = 4;
  t.steps = 32;
  t.elapsed_s = 3.2;
  t.data_wait_share = 0;
  double total = 0;
  for (float s : run.seconds) total += s;
  const StepIoEstimate means = EstimateStepIo(t, run.seconds.size(), total, 1);
  EXPECT_NEAR(means.load_s, 0.1, 1e-6);
  EXPECT_NEAR(means.lost_s, 0, 1e-6);

  // A deeper queue banks the fast run's batches: less is lost.
  LoaderShape deep = OneWorker(0.1);
  deep.prefetch = 8;
  EXPECT_LT(SimulateLoader(run, deep).lost_s, p.lost_s);
}

TEST(LoaderPipelineTest, StorageAtHalfTheDemandDoublesTheStep) {
  // 200 ms a batch (4 GETs of 50 ms, or 2 slots of 100 ms GETs) against 100 ms of compute.
  const PipelineEstimate p = SimulateLoader(Batches(20, 4, {0.05f}), OneWorker(0.1));
  EXPECT_NEAR(p.load_s, 0.2, 1e-6);
  // Every step waits for its batch: 20 batches back to back, the last one's compute after.
  EXPECT_NEAR(p.step_s, (20 * 0.2 + 0.1) / 20, 1e-6);
  EXPECT_NEAR(p.lost_s, p.step_s - 0.1, 1e-9);

  LoaderShape two_slots = OneWorker(0.1);
  two_slots.io_depth = 2;
  const PipelineEstimate q = SimulateLoader(Batches(20, 4, {0.1f}), two_slots);
  EXPECT_NEAR(q.load_s, 0.2, 1e-6);
  EXPECT_NEAR(q.step_s, p.step_s, 1e-6);
}

TEST(LoaderPipelineTest, SeveralWorkersReadBatchesSideBySide) {
  // 200 ms a batch, two workers: one batch every 100 ms, the compute's pace, after the first.
  LoaderShape two = OneWorker(0.1);
  two.workers = 2;
  const PipelineEstimate p = SimulateLoader(Batches(20, 4, {0.05f}), two);
  EXPECT_NEAR(p.first_batch_wait_s, 0.2, 1e-6);
  EXPECT_NEAR(p.step_s, 0.1 + 0.2 / 20, 1e-6);
  // A queue of one batch leaves the second worker idle: one worker's pace.
  two.prefetch = 1;
  EXPECT_NEAR(SimulateLoader(Batches(20, 4, {0.05f}), two).step_s, (20 * 0.2 + 0.1) / 20, 1e-6);
}

TEST(LoaderPipelineTest, TheTimedStepsAreTheLastOnes) {
  // Half the demand, 2 warm-up batches: the timed window starts after the second step.
  LoaderShape s = OneWorker(0.1);
  s.timed_steps = 18;
  const PipelineEstimate p = SimulateLoader(Batches(20, 4, {0.05f}), s);
  EXPECT_EQ(p.timed_steps, 18u);
  EXPECT_NEAR(p.seconds, 20 * 0.2 + 0.1 - (2 * 0.2 + 0.1), 1e-6);
  EXPECT_NEAR(p.images_per_s, 18 * 4 / p.seconds, 1e-6);
}

TEST(LoaderPipelineTest, ADecodeHoldAddsToEachImage) {
  LoaderShape s = OneWorker(0.1);
  s.hold_s = 0.01;
  EXPECT_NEAR(SimulateLoader(Batches(20, 4, {0.04f}), s).load_s, 4 * 0.05, 1e-6);
}

LoggedGet Get(uint32_t thread, int64_t start_ms, int64_t end_ms, float replayed_s) {
  return {thread, start_ms * 1000000, end_ms * 1000000, replayed_s};
}

TEST(LoaderPipelineTest, ReadsBatchesPerWorkerInTheOrderTheyBegan) {
  // Batches of 2: worker 0's first two GETs, worker 1's two, worker 0's next two; logged
  // interleaved, one read in flight per worker.
  const std::vector<LoggedGet> gets = {Get(0, 0, 10, 1),  Get(1, 1, 11, 2),  Get(0, 12, 20, 3),
                                       Get(1, 13, 30, 4), Get(0, 40, 50, 5), Get(0, 51, 60, 6)};
  const LoaderRun run = ReadLoaderRun(gets, 2);
  EXPECT_EQ(run.seconds, (std::vector<float>{1, 3, 2, 4, 5, 6}));
  EXPECT_EQ(run.ends, (std::vector<size_t>{2, 4, 6}));
  EXPECT_EQ(run.workers, 2u);
  EXPECT_EQ(run.most_in_flight, 1u);
  // Within a batch: 2, 2 and 1 ms between a GET's end and the next (40 - 20 is between two).
  EXPECT_NEAR(run.hold_s, 5e-3 / 3, 1e-9);
}

TEST(LoaderPipelineTest, SeveralInFlightAndAnInterruptedReplay) {
  // One worker, 3 GETs in flight at once: no decode hold is read from its gaps. Its GETs
  // after the first not replayed are left out.
  const std::vector<LoggedGet> gets = {Get(0, 0, 10, 1), Get(0, 1, 11, 1), Get(0, 2, 12, 1),
                                       Get(0, 13, 20, NAN), Get(0, 14, 20, 1)};
  const LoaderRun run = ReadLoaderRun(gets, 2);
  EXPECT_EQ(run.seconds.size(), 3u);
  EXPECT_EQ(run.ends, (std::vector<size_t>{2, 3}));
  EXPECT_EQ(run.most_in_flight, 3u);
  EXPECT_EQ(run.hold_s, 0);
}

TEST(LoaderPipelineTest, TheLoaderShapeComesFromTheResultsThenTheLog) {
  TrainingShape t;
  t.batch_size = 8;
  t.steps = 10;
  t.elapsed_s = 5;
  t.data_wait_share = 0.2;
  LoaderRun run;
  run.workers = 3;
  run.most_in_flight = 1;
  run.hold_s = 0.002;
  LoaderShape s = LoaderShapeOf(t, run);
  EXPECT_EQ(s.workers, 3u);
  EXPECT_EQ(s.io_depth, 1u);
  EXPECT_EQ(s.prefetch, 6u);
  EXPECT_DOUBLE_EQ(s.compute_s, 0.4);
  EXPECT_DOUBLE_EQ(s.hold_s, 0.002);
  EXPECT_EQ(s.timed_steps, 10u);
  // Recorded in the results: they win; reads in flight bounded by the batch, and with
  // several no hold.
  t.workers = 2;
  t.io_depth = 16;
  s = LoaderShapeOf(t, run);
  EXPECT_EQ(s.workers, 2u);
  EXPECT_EQ(s.io_depth, 8u);
  EXPECT_EQ(s.prefetch, 4u);
  EXPECT_EQ(s.hold_s, 0);

  StepIoEstimate e = EstimateStepIo(t, 80, 10, 1);  // the means: 8 images/s, 1 s a batch
  EXPECT_EQ(e.model, "mean");
  EXPECT_DOUBLE_EQ(e.predicted_step_s, 1);
  const PipelineEstimate p = SimulateLoader(Batches(10, 8, {0.125f}), s);
  ApplyPipeline(e, s, p);
  EXPECT_EQ(e.model, "pipeline");
  EXPECT_DOUBLE_EQ(e.mean_step_s, 1);
  EXPECT_DOUBLE_EQ(e.predicted_step_s, p.step_s);
  EXPECT_DOUBLE_EQ(e.lost_s, p.step_s - 0.4);
  EXPECT_DOUBLE_EQ(e.lost_share, e.lost_s / e.predicted_step_s);
  EXPECT_DOUBLE_EQ(e.first_batch_wait_s, p.first_batch_wait_s);
}

}  // namespace
}  // namespace trainbench::ops
