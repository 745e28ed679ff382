// A run keeps epochs.csv and its summary as its phases end (KeepRunSoFar, app/run/run_report.h)
// through the job's frame and its results writer, which never throws after Open: a disk that fills
// mid-run neither ends the run nor goes unsaid (the end names the file), and a later write that
// succeeds mends an earlier failure.
#include <gtest/gtest.h>

#include <cerrno>

#include "app/frame/job_frame.h"
#include "app/frame/results_sink.h"
#include "app/run/run_report.h"
#include "common/error.h"
#include "config/workload.h"
#include "metrics/run_record.h"

namespace trainbench::app {
namespace {

// A disk that fills after the folder is opened, and may be emptied again.
struct FillingDisk : MemoryResults {
  bool full = false;
  void WriteFile(const std::string& file, const std::string& text) override {
    if (full) throw IoError(file + ": No space left on device", ENOSPC);
    MemoryResults::WriteFile(file, text);
  }
};

class KeepRunSoFarTest : public ::testing::Test {
 protected:
  KeepRunSoFarTest()
      : frame_(&disk_,
               report::NewEnvelope("run", "unet3d", {"host"}, nlohmann::json::object(),
                                   "20261127T200000Z"),
               0) {
    config_.workload_name = "unet3d";
    OpenRunResults(config_, frame_);
    record_.workload = "unet3d";
    metrics::PhaseRecord epoch;
    epoch.kind = "train";
    epoch.epoch = 1;
    epoch.steps = 10;
    record_.epochs.push_back(epoch);
  }

  FillingDisk disk_;
  JobFrame frame_;
  config::WorkloadConfig config_;
  metrics::RunRecord record_;
};

TEST_F(KeepRunSoFarTest, AFullDiskNeitherEndsTheRunNorGoesUnsaid) {
  disk_.full = true;
  EXPECT_NO_THROW(KeepRunSoFar(config_, frame_, record_));
  disk_.full = false;
  const WrittenResults end = frame_.Finish(JobEnding{}, {}, TimeseriesResult{});
  EXPECT_NE(end.error.find("epochs.csv"), std::string::npos) << end.error;
  const auto summary = nlohmann::json::parse(disk_.files.at("summary.json"));
  EXPECT_EQ(summary["unwritten_files"], nlohmann::json::array({"epochs.csv"}));
}

TEST_F(KeepRunSoFarTest, ALaterWriteMendsAnEarlierFailure) {
  disk_.full = true;
  KeepRunSoFar(config_, frame_, record_);
  disk_.full = false;
  KeepRunSoFar(config_, frame_, record_);
  EXPECT_NE(disk_.files.at("epochs.csv").find("\ntrain,1,"), std::string::npos);
  const WrittenResults end = frame_.Finish(JobEnding{}, {}, TimeseriesResult{});
  EXPECT_EQ(end.error, "");
  EXPECT_FALSE(nlohmann::json::parse(disk_.files.at("summary.json")).contains("unwritten_files"));
}

}  // namespace
}  // namespace trainbench::app
