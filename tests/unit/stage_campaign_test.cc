#include <gtest/gtest.h>

#include "stage/campaign.h"

namespace trainbench::stage {
namespace {

TEST(StageCampaign, SumsJobsAndTakesTheMedian) {
  std::vector<CampaignJob> jobs = {
      {"a", "stage", true, 3600, 0, 1800, 900},
      {"b", "stage", false, 7200, 0, 3600, 3600},
      {"c", "train", true, 1800, 1800, 0, 0},
  };
  const CampaignTotals t = Summarize(jobs);
  EXPECT_EQ(t.jobs, 3u);
  EXPECT_EQ(t.successful, 2u);
  EXPECT_EQ(t.failed, 1u);
  EXPECT_DOUBLE_EQ(t.compute_hours, 0.5);
  EXPECT_DOUBLE_EQ(t.transfer_hours, 1.5);
  EXPECT_DOUBLE_EQ(t.wasted_hours, 1.25);
  EXPECT_DOUBLE_EQ(t.wall_hours, 3.5);
  EXPECT_DOUBLE_EQ(t.mean_job_s, 4200);
  EXPECT_DOUBLE_EQ(t.median_job_s, 3600);
  jobs.pop_back();
  EXPECT_DOUBLE_EQ(Summarize(jobs).median_job_s, 5400);  // even count: the mean of the middle
}

TEST(StageCampaign, EmptyCampaignIsZero) {
  const CampaignTotals t = Summarize({});
  EXPECT_EQ(t.jobs, 0u);
  EXPECT_EQ(t.mean_job_s, 0);
  EXPECT_EQ(t.median_job_s, 0);
}

TEST(StageCampaign, ReadsStageRunAndTrainSummaries) {
  const auto stage = JobFromSummary(
      nlohmann::json::parse(R"({"command":"stage","complete":true,"wall_s":10,"transfer_s":7,
                               "retry_wasted_s":2,"verify_s":1})"),
      "s");
  ASSERT_TRUE(stage);
  EXPECT_EQ(stage->kind, "stage");
  EXPECT_TRUE(stage->complete);
  EXPECT_EQ(stage->wall_s, 10);
  EXPECT_EQ(stage->transfer_s, 7);
  EXPECT_EQ(stage->wasted_s, 2);
  EXPECT_EQ(stage->compute_s, 0);  // absent: 0

  const auto run = JobFromSummary(
      nlohmann::json::parse(R"({"workload":"x","complete":false,"run_seconds":5})"), "r");
  ASSERT_TRUE(run);
  EXPECT_EQ(run->kind, "run");
  EXPECT_FALSE(run->complete);
  EXPECT_EQ(run->wall_s, 5);

  const auto train = JobFromSummary(
      nlohmann::json::parse(R"({"command":"train","complete":true,"wall_s":8,"compute_s":6})"),
      "t");
  ASSERT_TRUE(train);
  EXPECT_EQ(train->compute_s, 6);
  EXPECT_EQ(train->transfer_s, 0);

  // `train --stage-to`: the stage's shares and the compute in one account.
  const auto staged = JobFromSummary(
      nlohmann::json::parse(R"({"command":"train","complete":false,"wall_s":20,"compute_s":9,
                               "transfer_s":8,"retry_wasted_s":3})"),
      "st");
  ASSERT_TRUE(staged);
  EXPECT_EQ(staged->kind, "train");
  EXPECT_FALSE(staged->complete);
  EXPECT_EQ(staged->wall_s, 20);
  EXPECT_EQ(staged->compute_s, 9);
  EXPECT_EQ(staged->transfer_s, 8);
  EXPECT_EQ(staged->wasted_s, 3);

  EXPECT_FALSE(JobFromSummary(nlohmann::json::parse(R"({"something":"else"})"), "x"));
  EXPECT_FALSE(JobFromSummary(nlohmann::json::parse("[1,2]"), "x"));
}

}  // namespace
}  // namespace trainbench::stage
