// app/'s datagen, stage, staged-train and train jobs, called as the binary calls them:
// datagen against MemoryStorage and MemoryResults; the stage jobs from a local SOURCE into a
// scratch folder (stage writes to a file system only). Each keeps one results shape: the
// envelope first in summary.json, and the final line's "trainbench" object.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/dataset/datagen_job.h"
#include "app/train/stage_job.h"
#include "app/train/staged_train_job.h"
#include "app/train/train_job.h"
#include "common/error.h"
#include "config/workload_yaml.h"
#include "dist/implementations.h"
#include "storage/forwarding_storage.h"
#include "storage/memory_storage.h"

namespace trainbench::app {
namespace {
namespace fs = std::filesystem;

// A fresh scratch folder per test.
std::string Scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("app_transfer_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void WriteBytes(const std::string& path, size_t n) {
  std::ofstream out(path, std::ios::binary);
  for (size_t i = 0; i < n; ++i) out.put(static_cast<char>(i * 7));
}

nlohmann::ordered_json SummaryIn(const std::string& folder) {
  std::ifstream in(folder + "/summary.json");
  return nlohmann::ordered_json::parse(in);
}

class DatagenJobTest : public ::testing::Test {
 protected:
  DatagenJobTest() : ranks_(dist::MakeSingleProcessCommunicator()) {
    env_.open_storage = [this](const std::string&, const std::map<std::string, std::string>&) {
      return std::make_unique<storage::ForwardingStorage>(memory_);
    };
    env_.check_local_folders = false;
  }
  static DatagenJobOptions Small() {
    DatagenJobOptions o;
    o.config =
        config::LoadWorkload("resnet50_h100",
                             {"dataset.num_files_train=6", "dataset.num_samples_per_file=2",
                              "dataset.record_length_bytes=2048",
                              "dataset.record_length_bytes_stdev=0", "dataset.data_folder=mem/d"})
            .config;
    o.generate.progress = false;
    o.generate.threads = 2;
    o.interval_s = 0.05;
    return o;
  }
  std::unique_ptr<dist::Communicator> ranks_;
  storage::MemoryStorage memory_;
  MemoryResults results_;
  JobEnv env_{*ranks_, nullptr, nullptr};
};

TEST_F(DatagenJobTest, WritesTheDatasetAndKeepsItsWriteRateInTheEnvelope) {
  env_.results = &results_;
  const auto out = DatagenJob(Small(), env_);
  ASSERT_TRUE(out.reports);
  EXPECT_TRUE(out.results.error.empty()) << out.results.error;
  EXPECT_EQ(results_.name.rfind("datagen-resnet50_h100-", 0), 0u) << results_.name;
  const auto summary = nlohmann::json::parse(results_.files.at("summary.json"));
  EXPECT_EQ(summary["kind"], "datagen");
  EXPECT_EQ(summary["workload"], "resnet50_h100");
  EXPECT_TRUE(summary["complete"].get<bool>());
  EXPECT_EQ(summary["config"]["dataset"]["num_files_train"], 6);
  const auto files = summary["files"].get<int>();
  EXPECT_EQ(files, 6);
  EXPECT_EQ(summary["files_written"], files);
  EXPECT_GT(summary["bytes_written"].get<uint64_t>(), 6u * 2 * 2048);
  EXPECT_GT(summary["write_MB_per_second"].get<double>(), 0);
  // What it wrote is there: the files its summary counts (TFRecord's index files beside
  // them) and the manifest.
  EXPECT_EQ(memory_.List("train").size(), summary["files"].get<size_t>());
  EXPECT_TRUE(memory_.FileSize("trainbench_manifest.json").has_value());
  const auto line = nlohmann::json::parse(out.line);
  EXPECT_EQ(line["trainbench_datagen"]["files_written"], files);
  EXPECT_EQ(line["trainbench"]["kind"], "datagen");
  EXPECT_EQ(line["trainbench"]["results"], out.results.folder);
  EXPECT_NE(
      out.text.find(fmt::format("datagen: {0} files ({0} written, 0 already complete)", files)),
      std::string::npos)
      << out.text;

  // Again: every file is already complete, nothing is written.
  const auto again = DatagenJob(Small(), env_);
  EXPECT_EQ(nlohmann::json::parse(again.line)["trainbench_datagen"]["files_skipped"], files);
}

TEST_F(DatagenJobTest, WithoutASinkKeepsNoResultsButStillSaysWhatItDid) {
  const auto out = DatagenJob(Small(), env_);
  EXPECT_TRUE(out.results.folder.empty());
  EXPECT_EQ(nlohmann::json::parse(out.line)["trainbench"]["results"], "");
  EXPECT_TRUE(results_.files.empty());
}

TEST_F(DatagenJobTest, RefusesATimeSeriesIntervalTooShortBeforeWritingAnything) {
  auto o = Small();
  o.interval_s = 0.01;
  EXPECT_THROW(DatagenJob(o, env_), UsageError);
  EXPECT_TRUE(memory_.List("").empty());
}

TEST_F(DatagenJobTest, RefusesNoFilesAndACheckpointingWorkloadBeforeWritingAnything) {
  auto none = Small();
  none.config.dataset.num_files_train = 0;
  try {
    DatagenJob(none, env_);
    ADD_FAILURE() << "no refusal";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("dataset.num_files_train"), std::string::npos) << e.what();
  }
  auto checkpointing = Small();
  checkpointing.config = config::LoadWorkload("llama3_8b", {"dataset.data_folder=mem/d"}).config;
  try {
    DatagenJob(checkpointing, env_);
    ADD_FAILURE() << "no refusal";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("trainbench run llama3_8b"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(memory_.List("").empty());
}

TEST(StageJob, StagesALocalFileAndWritesItsAccountUnderTheEnvelope) {
  const std::string root = Scratch("stage");
  WriteBytes(root + "/blob.bin", 300000);
  StageJobOptions o;
  o.stage.source = root + "/blob.bin";
  o.stage.dest = root + "/dest";
  o.stage.progress = false;
  o.stage.streams = 2;
  o.stage.chunk_size = 64 << 10;
  o.stage.s3_options = {{"secret_access_key", "hunter2"}};
  o.output = root + "/results";
  o.interval_s = 0.05;
  fs::create_directories(o.stage.dest);
  fs::create_directories(o.output);
  const auto out = StageJob(o);
  ASSERT_EQ(out.exit_code, 0) << out.error;
  EXPECT_EQ(fs::file_size(root + "/dest/blob.bin"), 300000u);
  ASSERT_FALSE(out.results.folder.empty()) << out.results.error;
  EXPECT_EQ(fs::path(out.results.folder).filename().string().rfind("stage-", 0), 0u);
  const auto summary = SummaryIn(out.results.folder);
  EXPECT_EQ(summary.begin().key(), "kind");
  EXPECT_EQ(summary["kind"], "stage");
  EXPECT_EQ(summary["workload"], o.stage.source);
  EXPECT_TRUE(summary["complete"].get<bool>());
  EXPECT_EQ(summary["config"]["streams"], 2);
  EXPECT_EQ(summary["config"]["s3_options"]["secret_access_key"], "<redacted>");
  EXPECT_EQ(summary["total_bytes"], 300000);
  EXPECT_EQ(summary["command"], "stage");  // `stage --report` reads it as before
  EXPECT_TRUE(out.reports);
  EXPECT_NE(out.text.find("blob.bin"), std::string::npos) << out.text;
  const auto line = nlohmann::json::parse(out.line);
  EXPECT_TRUE(line["trainbench_stage"]["complete"].get<bool>());
  EXPECT_EQ(line["trainbench"]["kind"], "stage");
  EXPECT_EQ(line["trainbench"]["results"], out.results.folder);
  EXPECT_EQ(out.line.find("hunter2"), std::string::npos);

  const auto campaign = StageCampaign({o.output});
  EXPECT_NE(campaign.line.find("trainbench_campaign"), std::string::npos) << campaign.line;
}

TEST(StageJob, RefusesAnUnwritableDestBeforeAnyWork) {
  const std::string root = Scratch("refuse");
  WriteBytes(root + "/blob.bin", 1000);
  StageJobOptions o;
  o.stage.source = root + "/blob.bin";
  o.stage.dest = root + "/a-file-not-a-folder";
  WriteBytes(o.stage.dest, 1);
  o.output = root + "/results";
  EXPECT_THROW(StageJob(o), UsageError);
  EXPECT_FALSE(fs::exists(o.output));
  // An --interval too short for a row is refused too, before DEST is made.
  o.stage.dest = root + "/dest";
  o.interval_s = 0.01;
  EXPECT_THROW(StageJob(o), UsageError);
  EXPECT_FALSE(fs::exists(o.stage.dest));
  EXPECT_FALSE(fs::exists(o.output));
}

TEST(StagedTrainJob, OneAccountOfStageAndTrainingWithTheTrainingsLine) {
  const std::string root = Scratch("staged");
  WriteBytes(root + "/data.bin", 200000);
  StagedTrainOptions staged;
  staged.stage_to = root + "/dest";
  staged.output = root + "/results";
  staged.interval_s = 0.05;
  train::TrainOptions options;
  options.data = root + "/data.bin";
  bool ready = false;
  std::string trained_on;
  const auto out = StagedTrainJob(
      staged, options, [&] { ready = true; },
      [&] {
        trained_on = options.data;
        return nlohmann::ordered_json{{"radix_metrics", {{"images_per_second", 12.5}}}};
      });
  EXPECT_TRUE(ready);
  EXPECT_FALSE(out.failure);
  EXPECT_EQ(trained_on, root + "/dest/data.bin");  // one object: its path under DIR
  ASSERT_FALSE(out.results.folder.empty()) << out.results.error;
  const auto summary = SummaryIn(out.results.folder);
  EXPECT_EQ(summary["kind"], "staged_train");
  EXPECT_EQ(summary["command"], "train");
  EXPECT_EQ(summary["train"]["radix_metrics"]["images_per_second"], 12.5);
  EXPECT_GE(summary["compute_s"].get<double>(), 0);
  const auto line = nlohmann::json::parse(out.line);
  EXPECT_EQ(line["radix_metrics"]["images_per_second"], 12.5);
  EXPECT_EQ(line["trainbench"]["kind"], "staged_train");
}

TEST(StagedTrainJob, ATrainingThatFailsKeepsTheAccountMarkedIncomplete) {
  const std::string root = Scratch("staged_fail");
  WriteBytes(root + "/data.bin", 1000);
  StagedTrainOptions staged;
  staged.stage_to = root + "/dest";
  staged.output = root + "/results";
  staged.interval_s = 0;
  train::TrainOptions options;
  options.data = root + "/data.bin";
  const auto out = StagedTrainJob(
      staged, options, [] {},
      []() -> nlohmann::ordered_json { throw RuntimeError("the GPU fell off"); });
  EXPECT_TRUE(out.failure);
  const auto summary = SummaryIn(out.results.folder);
  EXPECT_FALSE(summary["complete"].get<bool>());
  EXPECT_EQ(summary["stop_reason"], "the GPU fell off");
  EXPECT_TRUE(out.line.empty());
}

TEST(StagedTrainJob, WhatCannotTrainFetchesNothing) {
  const std::string root = Scratch("staged_ready");
  WriteBytes(root + "/data.bin", 1000);
  StagedTrainOptions staged;
  staged.stage_to = root + "/dest";
  staged.output = root + "/results";
  train::TrainOptions options;
  options.data = root + "/data.bin";
  EXPECT_THROW(StagedTrainJob(
                   staged, options, [] { throw RuntimeError("no LibTorch"); },
                   [] { return nlohmann::ordered_json(); }),
               RuntimeError);
  EXPECT_FALSE(fs::exists(root + "/dest/data.bin"));
  options.data = "synthetic";
  EXPECT_THROW(StagedTrainJob(
                   staged, options, [] {}, [] { return nlohmann::ordered_json(); }),
               UsageError);
}

TEST(TrainJob, WithoutItsPluginSaysHowToGetLibTorch) {
  // The unit tests' binary has no plugin beside it.
  TrainJobOptions o;
  try {
    TrainJob(o);
    ADD_FAILURE() << "trained without a plugin";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("LibTorch"), std::string::npos) << e.what();
  }
}

TEST(TrainJob, RefusesFlagsThatDoNotGoTogetherBeforeLoadingAnything) {
  // Each a UsageError (exit 2) naming the flag, before the plugin is looked for (the unit
  // tests' binary has none: a RuntimeError would say the check came too late).
  const auto refused = [](TrainJobOptions o, const std::string& flag) {
    try {
      TrainJob(std::move(o));
      ADD_FAILURE() << "accepted " << flag;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  };
  // A web server's folder has no listing to train from in place (one tar there is read so).
  TrainJobOptions remote;
  remote.train.data = "https://origin.example/imagenet/";
  refused(remote, "--stage-to");
  TrainJobOptions s3_option_local;
  s3_option_local.train.data = "/data/imagenet";
  s3_option_local.staged.s3_options = {{"region", "x"}};
  refused(s3_option_local, "--s3-option");
  TrainJobOptions unknown_option;
  unknown_option.train.data = "s3://bucket/imagenet";
  unknown_option.staged.s3_options = {{"endpont_url", "http://x"}};
  refused(unknown_option, "endpoint_url");
  TrainJobOptions streams;
  streams.given.stage_streams = true;
  refused(streams, "--stage-streams");
  TrainJobOptions calibrate_kept;
  calibrate_kept.calibrate = "resnet50_h100";
  calibrate_kept.given.output = true;
  refused(calibrate_kept, "--output");
  TrainJobOptions calibrate_batch;
  calibrate_batch.calibrate = "resnet50_h100";
  calibrate_batch.given.batch_size = true;
  refused(calibrate_batch, "--batch-size");
  TrainJobOptions interval;
  interval.staged.interval_s = 0.01;
  refused(interval, "--interval");
}

TEST(IsRemoteData, UrlsAreStagedPathsAreNot) {
  EXPECT_TRUE(IsRemoteData("HTTPS://example.org/x.tar"));
  EXPECT_TRUE(IsRemoteData("s3://bucket/prefix/"));
  EXPECT_FALSE(IsRemoteData("/data/imagenet"));
  EXPECT_FALSE(IsRemoteData("synthetic"));
}

}  // namespace
}  // namespace trainbench::app
