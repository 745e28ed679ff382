// replay --train-results' means (beside its simulated loader, loader_pipeline_test.cc): a
// step takes the longer of its compute and its batch's loading at the replayed rate; the rest
// of it is lost to I/O. A train's and a staged train's
// summary.json both give the training's shape; anything else is refused naming the key.
#include "ops/step_io_estimate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.h"

namespace trainbench::ops {
namespace {

TrainingShape Shape() {
  TrainingShape t;
  t.batch_size = 32;
  t.steps = 10;
  t.elapsed_s = 5;          // 0.5 s a step
  t.data_wait_share = 0.2;  // 0.1 s of it waiting
  return t;
}

TEST(StepIoEstimateTest, SlowStorageAddsItsLoadingOverTheCompute) {
  // 64 GETs in 4 s on one rank: 16 images/s, 2 s a batch of 32 against 0.4 s of compute.
  const StepIoEstimate e = EstimateStepIo(Shape(), 64, 4, 1);
  EXPECT_DOUBLE_EQ(e.step_s, 0.5);
  EXPECT_DOUBLE_EQ(e.data_wait_s, 0.1);
  EXPECT_DOUBLE_EQ(e.compute_s, 0.4);
  EXPECT_DOUBLE_EQ(e.images_per_s, 16);
  EXPECT_DOUBLE_EQ(e.load_s, 2);
  EXPECT_DOUBLE_EQ(e.mean_step_s, 2);
  EXPECT_EQ(e.model, "mean");
  EXPECT_DOUBLE_EQ(e.predicted_step_s, 2);
  EXPECT_DOUBLE_EQ(e.lost_s, 1.6);
  EXPECT_DOUBLE_EQ(e.lost_share, 0.8);
  EXPECT_DOUBLE_EQ(e.predicted_images_per_s, 16);
}

TEST(StepIoEstimateTest, FastStorageLosesNothingAndRanksShareTheRate) {
  // 8000 GETs in 1 s over 4 ranks: 2000 images/s each, 16 ms a batch: the compute rules.
  const StepIoEstimate e = EstimateStepIo(Shape(), 8000, 1, 4);
  EXPECT_DOUBLE_EQ(e.images_per_s, 2000);
  EXPECT_DOUBLE_EQ(e.predicted_step_s, 0.4);
  EXPECT_DOUBLE_EQ(e.lost_s, 0);
  EXPECT_DOUBLE_EQ(e.predicted_images_per_s, 80);
}

class TrainingShapeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tb_step_io_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& text) {
    const auto path = (dir_ / "summary.json").string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

constexpr const char* kTrainLine =
    R"("radix_metrics":{"batch_size":8,"epochs":2,"steps_per_epoch":5,"elapsed_seconds":4.0},)"
    R"("trainbench":{"data_wait_share":0.25,"world_size":2})";

TEST_F(TrainingShapeTest, ReadsATrainFolderAndAStagedTrainsSummary) {
  Write(std::string(R"({"kind":"train","config":{"workers":6,"io_depth":4},)") + kTrainLine + "}");
  const TrainingShape t = ReadTrainingShape(dir_.string());
  EXPECT_EQ(t.batch_size, 8u);
  EXPECT_EQ(t.steps, 10u);
  EXPECT_DOUBLE_EQ(t.elapsed_s, 4.0);
  EXPECT_DOUBLE_EQ(t.data_wait_share, 0.25);
  EXPECT_EQ(t.world_size, 2);
  EXPECT_EQ(t.workers, 6u);
  EXPECT_EQ(t.io_depth, 4u);

  const std::string staged =
      Write(std::string(R"({"kind":"staged_train","train":{)") + kTrainLine + "}}");
  EXPECT_EQ(ReadTrainingShape(staged).batch_size, 8u);
}

TEST_F(TrainingShapeTest, RefusesWhatIsNoTrainingNamingTheKey) {
  const std::string run = Write(R"({"kind":"run","metrics":{}})");
  try {
    ReadTrainingShape(run);
    FAIL() << "a run's summary was taken for a training's";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("radix_metrics.batch_size"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("kind run"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ReadTrainingShape((dir_ / "none").string()), UsageError);
}

}  // namespace
}  // namespace trainbench::ops
