// app/'s jobs run whole against MemoryStorage, a single-process communicator and
// MemoryResults: no binary, no files.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/dataset/clean_job.h"
#include "app/dataset/datasize_job.h"
#include "app/replay/sai3_job.h"
#include "app/run/run_job.h"
#include "app/sweep/sweep_job.h"
#include "app/workload_load.h"
#include "common/error.h"
#include "config/datasize.h"
#include "config/sai3/sai3_config.h"
#include "config/workload_yaml.h"
#include "dist/implementations.h"
#include "storage/forwarding_storage.h"
#include "storage/memory_storage.h"

namespace trainbench::app {
namespace {

class AppJobsTest : public ::testing::Test {
 protected:
  AppJobsTest() : ranks_(dist::MakeSingleProcessCommunicator()) {
    env_.open_storage = [this](const std::string& uri, const std::map<std::string, std::string>&) {
      opened_.push_back(uri);
      return std::make_unique<storage::ForwardingStorage>(memory_);
    };
    env_.results = &results_;
    env_.check_local_folders = false;
  }

  // A small ResNet-50 run: 4 files of 8 samples of 4 KiB, no compute time.
  static RunJobOptions SmallRun(std::vector<std::string> overrides = {}) {
    std::vector<std::string> all = {"dataset.num_files_train=4",
                                    "dataset.num_samples_per_file=8",
                                    "dataset.record_length_bytes=4096",
                                    "dataset.record_length_bytes_stdev=0",
                                    "dataset.data_folder=mem/resnet",
                                    "reader.batch_size=4",
                                    "train.epochs=2",
                                    "train.computation_time=0",
                                    "workflow.generate_data=true"};
    all.insert(all.end(), overrides.begin(), overrides.end());
    RunJobOptions options;
    options.config = config::LoadWorkload("resnet50_h100", all).config;
    options.datagen_command = "trainbench datagen resnet50_h100 ...";
    options.progress = false;
    options.interval_s = 0.05;
    return options;
  }

  std::unique_ptr<dist::Communicator> ranks_;
  storage::MemoryStorage memory_;
  MemoryResults results_;
  JobEnv env_{*ranks_, nullptr, nullptr};
  std::vector<std::string> opened_;
};

TEST_F(AppJobsTest, RunGeneratesTheDatasetReadsItAndKeepsEveryResult) {
  const RunOutcome out = RunJob(SmallRun(), env_);
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_TRUE(out.reports);
  EXPECT_TRUE(out.record.complete);
  EXPECT_NE(out.text.find("AU"), std::string::npos) << out.text;  // the table
  EXPECT_EQ(out.line.rfind("{\"trainbench_metrics\":", 0), 0u) << out.line;
  EXPECT_TRUE(out.results.error.empty());
  EXPECT_EQ(out.summary["epochs_completed"].get<uint64_t>(), 2u);
  // epochs.csv and summary.json were written as it went (marked incomplete), then at the end:
  // a run killed midway keeps them.
  EXPECT_GE(results_.writes["summary.json"], 2);
  EXPECT_GE(results_.writes["epochs.csv"], 2);
  EXPECT_EQ(results_.writes["config.yaml"], 1);
  for (const char* file : {"config.yaml", "summary.json", "epochs.csv", "timeseries.csv"})
    EXPECT_EQ(results_.files.count(file), 1u) << file;
  EXPECT_EQ(results_.name.rfind("resnet50_h100-", 0), 0u) << results_.name;
  const auto summary = nlohmann::json::parse(results_.files["summary.json"]);
  EXPECT_TRUE(summary["complete"].get<bool>());
  EXPECT_EQ(summary["epochs_completed"].get<uint64_t>(), 2u);
  EXPECT_EQ(summary["train_samples"].get<uint64_t>(), 32u);
  // Both epochs read every train file whole (records and their framing).
  uint64_t train_bytes = 0;
  for (const auto& e : memory_.List(""))
    if (e.path.rfind("train/", 0) == 0) train_bytes += e.size_bytes;
  EXPECT_GT(train_bytes, 32u * 4096);
  EXPECT_EQ(summary["io_characterization"]["POSIX_BYTES_READ"].get<uint64_t>(), 2 * train_bytes);
  // The log holds the run's start and end lines.
  ASSERT_FALSE(results_.log.empty());
  EXPECT_NE(results_.log.front().find("warning: the dataset"), std::string::npos);  // the rules'
  EXPECT_TRUE(std::any_of(results_.log.begin(), results_.log.end(), [](const std::string& l) {
    return l.find("run resnet50_h100: 1 accelerator(s)") != std::string::npos;
  }));
  EXPECT_NE(results_.log.back().find("run complete"), std::string::npos);
  EXPECT_EQ(opened_, std::vector<std::string>{"mem/resnet"});
}

TEST_F(AppJobsTest, RunRefusesOutOfRangeOptionsBeforeAnyWork) {
  auto zero = SmallRun();
  zero.accelerators = 0;
  EXPECT_THROW(RunJob(zero, env_), UsageError);
  auto deep = SmallRun();
  deep.reads.io_threads = 1024;
  deep.reads.io_depth = 8;
  EXPECT_THROW(RunJob(deep, env_), UsageError);
  auto interval = SmallRun();
  interval.interval_s = 0.01;
  EXPECT_THROW(RunJob(interval, env_), UsageError);
  EXPECT_THROW(RunJob(SmallRun({"workflow.train=false", "workflow.checkpoint=false"}), env_),
               UsageError);
  EXPECT_TRUE(opened_.empty());
  EXPECT_TRUE(results_.name.empty());
}

TEST(TrainbenchCommandTest, QuotesWhatTheShellWouldSplitOrExpand) {
  EXPECT_EQ(TrainbenchCommand("datagen", "resnet50_h100", {"dataset.num_files_train=8"}),
            "trainbench datagen resnet50_h100 dataset.num_files_train=8");
  EXPECT_EQ(TrainbenchCommand("datagen", "my w.yaml", {"dataset.data_folder=/mnt/it's"}),
            "trainbench datagen 'my w.yaml' 'dataset.data_folder=/mnt/it'\\''s'");
  // A secret's value is never shown; the key stays, so the user sees what to give again.
  EXPECT_EQ(
      TrainbenchCommand("datagen", "w", {"storage.storage_options.secret_access_key=hunter2"}),
      "trainbench datagen w 'storage.storage_options.secret_access_key=<redacted>'");
}

TEST_F(AppJobsTest, RunOfAMissingDatasetNamesTheCommandThatWritesIt) {
  try {
    RunJob(SmallRun({"workflow.generate_data=false"}), env_);
    FAIL() << "a run without its dataset must not start";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("trainbench datagen resnet50_h100"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(results_.name.empty());  // nothing measured, no results
}

TEST_F(AppJobsTest, CleanListsThenRemovesOnlyWhatTrainbenchWrote) {
  ASSERT_EQ(RunJob(SmallRun(), env_).exit_code, 0);
  memory_.Publish("thesis.txt", std::make_shared<storage::MemoryStorage::Bytes>(10, 'x'));
  CleanOptions clean{SmallRun().config, false, false};
  const auto listed = CleanJob(clean, env_);
  ASSERT_TRUE(listed.reports);
  EXPECT_FALSE(listed.removed);
  // What the console shows: the names, the foreign one kept, and how to go on.
  EXPECT_NE(listed.text.find("foreign, kept: mem:/thesis.txt"), std::string::npos) << listed.text;
  EXPECT_NE(listed.text.find("add --yes to remove them"), std::string::npos) << listed.text;
  EXPECT_EQ(listed.what, "dataset");
  EXPECT_GE(listed.ours.size(), 4u);  // the 4 files and the manifest
  ASSERT_EQ(listed.foreign.size(), 1u);
  EXPECT_NE(listed.foreign[0].name.find("thesis.txt"), std::string::npos);
  const size_t before = memory_.List("").size();
  EXPECT_EQ(before, listed.ours.size() + 1);

  clean.yes = true;
  const auto removed = CleanJob(clean, env_);
  ASSERT_TRUE(removed.reports);
  EXPECT_TRUE(removed.removed);
  EXPECT_NE(removed.text.find("clean: removed "), std::string::npos) << removed.text;
  const auto left = memory_.List("");
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].path, "thesis.txt");
}

TEST_F(AppJobsTest, CleanRefusesAPlaceWithoutATrainbenchDataset) {
  memory_.Publish("photos/a.jpg", std::make_shared<storage::MemoryStorage::Bytes>(10, 'x'));
  EXPECT_THROW(CleanJob({SmallRun().config, false, true}, env_), UsageError);
  EXPECT_EQ(memory_.List("").size(), 1u);
}

TEST_F(AppJobsTest, CheckpointJobWritesThenReadsBackItsShards) {
  auto options =
      SmallRun({"workflow.train=false", "workflow.checkpoint=true", "workflow.generate_data=false",
                "checkpoint.checkpoint_folder=mem/ckpt", "checkpoint.num_checkpoints_write=2",
                "checkpoint.num_checkpoints_read=1", "model.model_size_bytes=65536"});
  EXPECT_EQ(RunJob(options, env_).exit_code, 0);  // a checkpointing workload goes to CheckpointJob
  EXPECT_EQ(opened_, std::vector<std::string>{"mem/ckpt"});
  const auto summary = nlohmann::json::parse(results_.files["summary.json"]);
  EXPECT_TRUE(summary["complete"].get<bool>());
  EXPECT_TRUE(summary["checkpointing_only"].get<bool>());
  const auto& checkpoints = summary["checkpoints"];
  ASSERT_EQ(checkpoints.size(), 3u);  // two writes, one read
  uint64_t written = 0;
  for (const auto& k : checkpoints)
    if (k["operation"] == "write") written += k["bytes"].get<uint64_t>();
  // Model and optimizer states: 3 x the model's bytes per checkpoint, all in memory.
  EXPECT_EQ(written, 2u * 3 * 65536);
  // Beside them, each checkpoint's record of its files (what `clean --checkpoints` goes by).
  uint64_t stored = 0, records = 0;
  for (const auto& e : memory_.List(""))
    (e.path.find("/.trainbench_checkpoint.rank") != std::string::npos ? records : stored) +=
        e.size_bytes;
  EXPECT_EQ(stored, written);
  EXPECT_GT(records, 0u);
  EXPECT_EQ(checkpoints[2]["operation"], "read");
  EXPECT_EQ(checkpoints[2]["bytes"].get<uint64_t>(), 3u * 65536);
}

TEST_F(AppJobsTest, DatasizeIsMlperfRuleForTheGivenHosts) {
  DatasizeOptions options;
  options.config = config::LoadWorkload("resnet50_h100", {}).config;
  options.accelerators = 8;
  options.hosts = 2;
  options.host_memory_gib = 64;
  options.workload = "resnet50_h100";
  const auto result = DatasizeJob(options, env_);
  ASSERT_TRUE(result.reports && result.data);
  const auto& d = *result.data;
  // The answer names the command that writes a dataset of that size.
  EXPECT_NE(result.text.find(fmt::format("trainbench datagen resnet50_h100 "
                                         "dataset.num_files_train={}",
                                         d.size.files)),
            std::string::npos)
      << result.text;
  const auto& c = options.config;
  // max(500 x batch x accelerators, 5 x hosts x memory / sample size), in whole files.
  const double by_memory = 5.0 * 2 * 64 * (1ull << 30) / c.dataset.record_length_bytes;
  const double by_steps = 500.0 * static_cast<double>(c.reader.batch_size) * 8;
  EXPECT_GE(static_cast<double>(d.size.samples), std::max(by_memory, by_steps));
  EXPECT_EQ(d.size.files,
            (d.size.samples + c.dataset.num_samples_per_file - 1) / c.dataset.num_samples_per_file);
  EXPECT_EQ(d.hosts, 2u);
  EXPECT_EQ(d.accelerators, 8u);
  EXPECT_GT(d.au_files, 0u);
  EXPECT_FALSE(result.checkpoint);
}

TEST_F(AppJobsTest, DatasizeOfACheckpointingWorkloadSizesItsCheckpoint) {
  DatasizeOptions options;
  options.config = config::LoadWorkload("llama3_8b", {}).config;
  const auto result = DatasizeJob(options, env_);
  ASSERT_TRUE(result.reports && result.checkpoint);
  EXPECT_TRUE(result.checkpointing_workload);
  const auto& k = *result.checkpoint;
  // llama3_8b: about 8 billion parameters; the optimizer's states are larger than the model's.
  EXPECT_GT(k.size.parameters, 7'000'000'000u);
  EXPECT_LT(k.size.parameters, 9'000'000'000u);
  EXPECT_GT(k.size.optimizer_bytes, k.size.model_bytes);
  EXPECT_FALSE(result.data);

  DatasizeOptions not_transformer;
  not_transformer.config = config::LoadWorkload("resnet50_h100", {}).config;
  not_transformer.checkpoint = true;
  EXPECT_THROW(DatasizeJob(not_transformer, env_), UsageError);
}

TEST_F(AppJobsTest, SweepFindsTheCountsTheDatasetAllowsAndKeepsEveryProbe) {
  // 32 files of 1 sample at batch 1: above 32 / MinStepsForAuVerdict accelerators an
  // epoch has too few steps for an AU verdict, so the growth ends there.
  SweepOptions options;
  // 20 ms of compute a step: a loaded box (ctest -j2) wakes a timer late by a few ms, which
  // at 1 ms failed the AU before the dataset's limit.
  options.run = SmallRun({"dataset.num_files_train=32", "dataset.num_samples_per_file=1",
                          "reader.batch_size=1", "train.computation_time=0.02", "train.epochs=1"});
  options.run.interval_s = 0;
  options.highest = 64;
  // Each probe's results, as its sink held them when the probe ended.
  struct KeptResults : MemoryResults {
    explicit KeptResults(std::vector<std::map<std::string, std::string>>& kept) : kept_(kept) {}
    ~KeptResults() override { kept_.push_back(files); }
    std::vector<std::map<std::string, std::string>>& kept_;
  };
  std::vector<std::map<std::string, std::string>> probe_sinks;
  const auto out = SweepJob(options, env_, [&](const std::string&) {
    return std::make_unique<KeptResults>(probe_sinks);
  });
  ASSERT_TRUE(out.reports);
  const uint64_t steps_needed = config::MinStepsForAuVerdict(options.run.config);
  EXPECT_EQ(out.search.answer, 32 / steps_needed);
  EXPECT_TRUE(out.search.limited_by_dataset);
  EXPECT_EQ(out.probes.size(), out.search.steps.size());
  EXPECT_EQ(probe_sinks.size(), out.probes.size());  // every probe kept its run's results
  for (const auto& files : probe_sinks) EXPECT_EQ(files.count("summary.json"), 1u);
  const auto summary = nlohmann::json::parse(results_.files.at("summary.json"));
  EXPECT_EQ(summary["kind"], "sweep");
  EXPECT_EQ(summary["answer_accelerators"], out.search.answer);
  EXPECT_EQ(summary["probes"].size(), out.probes.size());
  EXPECT_EQ(results_.files.count("probes.csv"), 1u);
  EXPECT_NE(out.sentence.find("dataset is too small"), std::string::npos) << out.sentence;
  EXPECT_NE(out.text.find(out.sentence), std::string::npos) << out.text;  // the console's answer
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(out.line)["trainbench"]["kind"], "sweep");
}

TEST_F(AppJobsTest, SweepRefusesWhatHasNoAnswerBeforeAnyRun) {
  auto none = [](const std::string&) { return std::unique_ptr<ResultsSink>(); };
  SweepOptions storage_only;
  storage_only.run = SmallRun();  // computation_time 0: AU is no verdict at any count
  EXPECT_THROW(SweepJob(storage_only, env_, none), UsageError);
  SweepOptions backwards;
  backwards.run = SmallRun({"train.computation_time=0.01"});
  backwards.lowest = 8;
  backwards.highest = 4;
  EXPECT_THROW(SweepJob(backwards, env_, none), UsageError);
  EXPECT_TRUE(opened_.empty());  // no storage was touched
}

TEST_F(AppJobsTest, Sai3JobPreparesRunsItsMixAndRemovesOnlyWhatPrepareWrote) {
  Sai3Options options;
  options.config =
      config::LoadSai3Config(
          std::string(TRAINBENCH_SOURCE_DIR) + "/tests/data/sai3-bench/resnet50_1-host.yaml",
          {"target=mem/", "duration=0.3s", "concurrency=2", "perf_log.interval=0.05s",
           "prepare.ensure_objects.0.count=12", "prepare.directory_structure.width=2",
           "prepare.directory_structure.files_per_dir=3",
           "prepare.ensure_objects.0.size_spec.max=65536", "prepare.cleanup=true",
           "workload.1.op=put", "workload.1.path=out/", "workload.1.object_size=100",
           "workload.1.weight=50", "workload.2.op=delete", "workload.2.path=out/*",
           "workload.2.weight=10"})
          .config;
  options.progress = false;
  memory_.Create("out/theirs.bin")->Commit();  // not the job's: its DELETEs leave it
  const Sai3Outcome out = Sai3Job(options, env_);
  ASSERT_TRUE(out.reports);
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(results_.name.rfind("sai3-resnet50_1-host", 0), 0u) << results_.name;
  const auto summary = nlohmann::json::parse(results_.files.at("summary.json"));
  EXPECT_EQ(summary["kind"], "sai3");
  EXPECT_TRUE(summary["complete"].get<bool>());
  EXPECT_EQ(summary["prepare"]["written"].get<uint64_t>(), 12u);
  std::map<std::string, uint64_t> count;
  uint64_t total = 0;
  for (const auto& op : summary["ops"]) {
    count[op["op"].get<std::string>()] = op["count"].get<uint64_t>();
    total += op["count"].get<uint64_t>();
  }
  EXPECT_EQ(total, summary["operations"].get<uint64_t>());
  EXPECT_GT(count["GET"], 0u);
  EXPECT_GT(count["PUT"], 0u);
  EXPECT_EQ(results_.files.count("timeseries.csv"), 1u);
  // Cleanup took prepare's objects and manifest; the PUTs not deleted and the foreign object
  // stay.
  uint64_t prepared = 0, put = 0;
  bool theirs = false, manifest = false;
  for (const auto& e : memory_.List("")) {
    prepared += e.path.find("prepared-") != std::string::npos;
    put += e.path.rfind("out/trainbench-r0-", 0) == 0;
    theirs = theirs || e.path == "out/theirs.bin";
    manifest = manifest || e.path == "trainbench_manifest.json";
  }
  EXPECT_EQ(prepared, 0u);
  EXPECT_FALSE(manifest);
  EXPECT_TRUE(theirs);
  EXPECT_EQ(put, count["PUT"] - count["DELETE"]);
}

}  // namespace
}  // namespace trainbench::app
