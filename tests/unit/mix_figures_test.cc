// A mix's figures from its jobs' records (app/mix/mix_figures.h), on records made by hand: the
// jobs' rows and checkpoints placed on the mix's axis by each job's own start, a training's AU
// inside and outside another job's bursts, the storage's bytes per interval with each job's
// share, and the baseline's cost; and config/mix.h's words: a --job, overrides for one job or
// all, names given to unnamed jobs, refusals.
#include "app/mix/mix_figures.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "config/mix.h"

namespace trainbench::app {
namespace {

metrics::TimeseriesRow Row(double elapsed, double wait_share, double mb_per_s,
                           const char* phase = "train") {
  metrics::TimeseriesRow r;
  r.elapsed_s = elapsed;
  r.interval_s = 1;
  r.phase = phase;
  r.data_wait_share = wait_share;
  r.io_mb_per_second = mb_per_s;
  return r;
}

// A training that started 0.5 s into the mix (its rows count from there), and a checkpointing
// job that started with the mix and wrote 4 MB from 1.5 to 2.5 s.
MixRecord TwoJobs() {
  MixRecord mix;
  mix.started_at_s = 100;
  mix.wall_s = 4;
  MixJobResult train;
  train.spec.name = "train";
  train.spec.accelerators = 2;
  train.workload = "resnet50_h100";
  train.metrics.au_percentage.emplace(80.0);
  train.metrics.samples_per_second.emplace(100.0);
  train.record.started_at_s = 100.5;
  train.record.timeseries = {Row(1, 0.0, 10, "setup"), Row(2, 0.5, 10), Row(3, 0.1, 10)};
  MixJobResult ck;
  ck.spec.name = "ck";
  ck.spec.every_s = 60;
  ck.trains = false;
  ck.workload = "llama3_8b";
  ck.record.started_at_s = 100;
  metrics::CheckpointRecord c;
  c.operation = "write";
  c.started_at_s = 101.5;
  c.seconds = 1;
  c.bytes = 4000000;
  c.files = 2;
  ck.record.checkpoints = {c};
  mix.jobs = {train, ck};
  return mix;
}

TEST(MixFigures, PlacesRowsAndBurstsOnTheMixAxis) {
  const nlohmann::ordered_json f = MixFigures(TwoJobs(), nullptr, 1);
  const auto& train = f["jobs"][0];
  EXPECT_DOUBLE_EQ(train["start_s"].get<double>(), 0.5);
  EXPECT_EQ(train["series"]["t_s"], nlohmann::ordered_json({1.5, 2.5, 3.5}));
  // Setup has no AU; a train row's AU is the share not spent waiting for data.
  EXPECT_TRUE(train["series"]["au_percentage"][0].is_null());
  EXPECT_DOUBLE_EQ(train["series"]["au_percentage"][1].get<double>(), 50);
  ASSERT_EQ(f["bursts"].size(), 1u);
  EXPECT_EQ(f["bursts"][0]["job"], "ck");
  EXPECT_DOUBLE_EQ(f["bursts"][0]["start_s"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(f["bursts"][0]["end_s"].get<double>(), 2.5);
}

TEST(MixFigures, AuInsideAndOutsideTheOthersBursts) {
  const nlohmann::ordered_json f = MixFigures(TwoJobs(), nullptr, 1);
  const auto& train = f["jobs"][0];
  // Rows [1.5, 2.5] and [2.5, 3.5]: the first overlaps the burst [1.5, 2.5], the second not.
  EXPECT_DOUBLE_EQ(train["au_in_bursts_percentage"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(train["au_outside_bursts_percentage"].get<double>(), 90);
  EXPECT_EQ(train["intervals_in_bursts"], 1);
  EXPECT_FALSE(f["jobs"][1].contains("au_in_bursts_percentage"));  // not a training
}

TEST(MixFigures, StorageBytesPerIntervalAndShares) {
  const nlohmann::ordered_json f = MixFigures(TwoJobs(), nullptr, 1);
  const auto& series = f["storage"]["series"];
  ASSERT_EQ(series["t_s"].size(), 4u);
  // Interval [1, 2): the setup row's second half (5 MB) and the first half of the row ending
  // at 2.5 (5 MB), and half the checkpoint (2 MB): 12 MB.
  EXPECT_NEAR(series["MB_per_second"][1].get<double>(), 12, 1e-9);
  EXPECT_NEAR(series["share"]["ck"][1].get<double>(), 2.0 / 12, 1e-9);
  for (size_t i = 0; i < 4; ++i) {
    const double sum =
        series["share"]["train"][i].get<double>() + series["share"]["ck"][i].get<double>();
    EXPECT_TRUE(sum == 0 || std::abs(sum - 1) < 1e-9) << i;
  }
  EXPECT_EQ(f["storage"]["checkpoint_files"], 2);
  EXPECT_NEAR(f["storage"]["checkpoint_MB_per_second"].get<double>(), 1, 1e-9);  // 4 MB / 4 s
}

TEST(MixFigures, TheBaselinesCost) {
  MixRecord alone = TwoJobs();
  alone.jobs[0].metrics.au_percentage.emplace(95.0);
  alone.jobs[0].metrics.samples_per_second.emplace(125.0);
  const nlohmann::ordered_json f = MixFigures(TwoJobs(), &alone, 1);
  const auto& cost = f["jobs"][0]["alone"]["cost"];
  EXPECT_DOUBLE_EQ(cost["au_points"].get<double>(), 15);
  EXPECT_DOUBLE_EQ(cost["samples_per_second_ratio"].get<double>(), 0.8);
  EXPECT_TRUE(f["mix"]["baseline"].get<bool>());
}

// summary.json is read back (report's comparisons): the figures survive the round trip, nulls
// included.
TEST(MixFigures, ReadBackAsWritten) {
  MixRecord alone = TwoJobs();
  const MixSummary written = MixFigures(TwoJobs(), &alone, 1);
  const nlohmann::ordered_json j = written;
  const auto back = j.get<MixSummary>();
  EXPECT_EQ(nlohmann::ordered_json(back), j);
  ASSERT_EQ(back.jobs.size(), 2u);
  EXPECT_FALSE(back.jobs[1].au_percentage.has_value());
  EXPECT_TRUE(j["jobs"][1]["au_percentage"].is_null());
  EXPECT_FALSE(back.jobs[1].au_in_bursts_percentage.has_value());
  EXPECT_EQ(back.storage.series.share.jobs.front().first, "train");  // the mix's order, not sorted
}

TEST(MixWords, JobsAndOverrides) {
  config::Mix mix;
  mix.jobs.push_back(config::ParseMixJob("workload=resnet50_h100 accelerators=4 train.epochs=2"));
  mix.jobs.push_back(config::ParseMixJob("workload=resnet50_h100"));
  mix.jobs.push_back(config::ParseMixJob("name=ck workload=llama3_8b every_s=60"));
  config::CheckMix(mix);
  EXPECT_EQ(mix.jobs[0].name, "resnet50_h100");
  EXPECT_EQ(mix.jobs[1].name, "resnet50_h100-2");
  EXPECT_TRUE(mix.jobs[2].Background());
  EXPECT_FALSE(mix.jobs[0].Background());
  config::ApplyMixOverride(mix, "dataset.data_folder=/d");
  config::ApplyMixOverride(mix, "resnet50_h100-2:accelerators=3");
  config::ApplyMixOverride(mix, "ck:checkpoint.checkpoint_folder=/c");
  EXPECT_EQ(mix.jobs[0].overrides,
            (std::vector<std::string>{"train.epochs=2", "dataset.data_folder=/d"}));
  EXPECT_EQ(mix.jobs[1].accelerators, 3u);
  EXPECT_EQ(mix.jobs[2].overrides.back(), "checkpoint.checkpoint_folder=/c");
  EXPECT_THROW(config::ApplyMixOverride(mix, "nope:train.epochs=1"), UsageError);
  EXPECT_THROW(config::ParseMixJob("workload=resnet50_h100 accelerators=-1"), UsageError);
  EXPECT_THROW(config::ParseMixJob("workload=resnet50_h100 every_s=0"), UsageError);
  EXPECT_THROW(config::ParseMixJob("accelerators=2"), UsageError);
  EXPECT_THROW(config::ParseMixJob("workload=resnet50_h100 speed=2"), UsageError);
}

}  // namespace
}  // namespace trainbench::app
