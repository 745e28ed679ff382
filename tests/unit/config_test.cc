#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "config/builtin_workloads.h"
#include "config/datasize.h"
#include "config/mlperf_round.h"
#include "config/workload_yaml.h"
#include "formats/format.h"
#include "usage_error_of.h"

namespace trainbench::config {
namespace {

WorkloadConfig FromYaml(const std::string& yaml, std::vector<std::string>* warnings = nullptr) {
  WorkloadConfig c;
  std::vector<std::string> w;
  ApplyYaml(yaml, "test.yaml", c, w);
  if (warnings) *warnings = w;
  return c;
}

TEST(ConfigTest, DefaultsAreDlios) {
  WorkloadConfig c;
  EXPECT_EQ(c.dataset.record_length_bytes, 65536);
  EXPECT_EQ(c.dataset.num_files_train, 8u);
  EXPECT_EQ(c.dataset.num_samples_per_file, 1u);
  EXPECT_EQ(c.dataset.file_prefix, "img");
  EXPECT_EQ(c.dataset.format, "tfrecord");
  EXPECT_EQ(c.reader.batch_size, 1u);
  EXPECT_EQ(c.reader.prefetch_size, 2u);
  EXPECT_EQ(c.reader.shuffle_size, 1024u);
  EXPECT_EQ(c.train.epochs, 1u);
  EXPECT_EQ(c.train.seed, 123u);
  EXPECT_TRUE(c.train.seed_change_epoch);
  EXPECT_EQ(c.checkpoint.steps_between_checkpoints, -1);
  EXPECT_DOUBLE_EQ(c.metric.au, 0.90);
}

TEST(ConfigTest, BuiltinResnet50H100HasMlperfFigures) {
  const auto c = LoadWorkload("resnet50_h100", {}).config;
  EXPECT_EQ(c.dataset.format, "tfrecord");
  EXPECT_EQ(c.dataset.num_files_train, 1024u);
  EXPECT_EQ(c.dataset.num_samples_per_file, 1251u);
  EXPECT_DOUBLE_EQ(c.dataset.record_length_bytes, 114660.07);
  EXPECT_EQ(c.dataset.record_length_bytes_resize, 150528u);
  EXPECT_EQ(c.reader.batch_size, 400u);
  EXPECT_EQ(c.reader.read_threads, 8u);
  EXPECT_EQ(c.reader.computation_threads, 8u);
  EXPECT_DOUBLE_EQ(c.train.computation_time.mean, 0.224);
  EXPECT_EQ(c.train.epochs, 5u);
  EXPECT_DOUBLE_EQ(c.metric.au, 0.90);
  EXPECT_DOUBLE_EQ(LoadWorkload("resnet50_a100", {}).config.train.computation_time.mean, 0.435);
  const auto v100 = LoadWorkload("resnet50_v100", {}).config;
  EXPECT_DOUBLE_EQ(v100.train.computation_time.mean, 0.195);
  EXPECT_EQ(v100.reader.batch_size, 64u);
  EXPECT_EQ(v100.reader.batch_size_eval, 128u);
}

TEST(ConfigTest, BuiltinUnet3dAndCosmoflow) {
  const auto u = LoadWorkload("unet3d_h100", {}).config;
  EXPECT_EQ(u.dataset.format, "npz");
  EXPECT_EQ(u.dataset.num_files_train, 168u);
  EXPECT_DOUBLE_EQ(u.dataset.record_length_bytes, 146600628);
  EXPECT_DOUBLE_EQ(u.dataset.record_length_bytes_stdev, 68341808);
  EXPECT_EQ(u.dataset.record_length_bytes_resize, 2097152u);
  EXPECT_EQ(u.reader.batch_size, 7u);
  EXPECT_EQ(u.reader.read_threads, 4u);
  EXPECT_EQ(u.reader.file_shuffle, Shuffle::kSeed);
  EXPECT_EQ(u.reader.sample_shuffle, Shuffle::kSeed);
  EXPECT_DOUBLE_EQ(u.train.computation_time.mean, 0.323);
  EXPECT_EQ(u.checkpoint.checkpoint_after_epoch, 5u);
  EXPECT_EQ(u.checkpoint.epochs_between_checkpoints, 2u);
  EXPECT_EQ(u.model.model_size_bytes, 499153191u);
  EXPECT_TRUE(u.workflow.checkpoint);
  EXPECT_DOUBLE_EQ(LoadWorkload("unet3d_a100", {}).config.train.computation_time.mean, 0.636);
  const auto c = LoadWorkload("cosmoflow_h100", {}).config;
  EXPECT_EQ(c.dataset.num_files_train, 524288u);
  EXPECT_DOUBLE_EQ(c.dataset.record_length_bytes, 2828486);
  EXPECT_DOUBLE_EQ(c.dataset.record_length_bytes_stdev, 71311);
  EXPECT_EQ(c.reader.shuffle_size, 2u);
  EXPECT_DOUBLE_EQ(c.train.computation_time.mean, 0.00350);
  EXPECT_DOUBLE_EQ(c.metric.au, 0.70);
  EXPECT_DOUBLE_EQ(LoadWorkload("cosmoflow_a100", {}).config.train.computation_time.mean, 0.00551);
}

TEST(ConfigTest, UnknownKeyNamesFileLineAndNearestKey) {
  const std::string e = UsageErrorOf([] { FromYaml("dataset:\n  num_file_train: 3\n"); });
  EXPECT_NE(e.find("test.yaml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("dataset.num_file_train"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'dataset.num_files_train'"), std::string::npos) << e;
}

TEST(ConfigTest, WrongTypeNamesKeyLineAndExpectedForm) {
  std::string e =
      UsageErrorOf([] { FromYaml("reader:\n  batch_size: 7\n  read_threads: many\n"); });
  EXPECT_NE(e.find("test.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("reader.read_threads"), std::string::npos) << e;
  EXPECT_NE(e.find("an integer >= 1"), std::string::npos) << e;
  e = UsageErrorOf([] { FromYaml("reader:\n  batch_size: 0\n"); });
  EXPECT_NE(e.find("an integer >= 1"), std::string::npos) << e;
  e = UsageErrorOf([] { FromYaml("metric:\n  au: 1.5\n"); });
  EXPECT_NE(e.find("metric.au"), std::string::npos) << e;
  EXPECT_NE(e.find("<= 1"), std::string::npos) << e;
  // Which formats exist is formats/' to say: the commands check the name after loading.
  e = UsageErrorOf([] { formats::CheckFormat(FromYaml("dataset:\n  format: Orc\n")); });
  EXPECT_NE(e.find("dataset.format 'orc' is not a known format; known: tfrecord, npz"),
            std::string::npos)
      << e;
  e = UsageErrorOf([] { FromYaml("workflow:\n  train: maybe\n"); });
  EXPECT_NE(e.find("true or false"), std::string::npos) << e;
  e = UsageErrorOf([] { FromYaml("dataset: 5\n"); });
  EXPECT_NE(e.find("group of keys"), std::string::npos) << e;
  e = UsageErrorOf([] { FromYaml("dataset: [\n"); });
  EXPECT_NE(e.find("invalid YAML"), std::string::npos) << e;
}

TEST(ConfigTest, AcceptedButIgnoredKeysWarn) {
  std::vector<std::string> warnings;
  FromYaml(
      "model:\n  layer_parameters: [1]\n  optimization_groups: [2]\nworkflow:\n  profiling: "
      "false\n",
      &warnings);
  ASSERT_EQ(warnings.size(), 1u);  // one line per source, naming every key and its line
  EXPECT_NE(warnings[0].find("test.yaml: DLIO keys trainbench accepts but does not act on: "
                             "model.layer_parameters (line 2), model.optimization_groups (line 3), "
                             "workflow.profiling (line 5)"),
            std::string::npos)
      << warnings[0];
  // Keys read into the config but not acted on still keep their value.
  const auto c = FromYaml("reader:\n  data_loader: pytorch\n", &warnings);
  EXPECT_EQ(c.reader.data_loader, "pytorch");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("reader.data_loader (line 2)"), std::string::npos) << warnings[0];
  WorkloadConfig o;
  std::vector<std::string> w;
  ApplyOverride("reader.computation_threads=4", o, w);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("override 'reader.computation_threads=4': DLIO keys trainbench accepts but "
                      "does not act on: reader.computation_threads"),
            std::string::npos)
      << w[0];
}

// Built-in workloads carry DLIO keys trainbench does not act on; users cannot change those,
// so only their own overrides warn.
TEST(ConfigTest, BuiltinWorkloadsDoNotWarnAboutTheirOwnKeys) {
  EXPECT_TRUE(LoadWorkload("resnet50_h100", {}).warnings.empty());
  const auto loaded = LoadWorkload("resnet50_h100", {"reader.data_loader=pytorch"});
  ASSERT_EQ(loaded.warnings.size(), 1u);
  EXPECT_NE(loaded.warnings[0].find("override 'reader.data_loader=pytorch'"), std::string::npos)
      << loaded.warnings[0];
}

TEST(ConfigTest, ComputationTimeForms) {
  using Kind = TimeDistribution::Kind;
  auto t = FromYaml("train:\n  computation_time: 0.5\n").train.computation_time;
  EXPECT_EQ(t.kind, Kind::kConstant);
  EXPECT_DOUBLE_EQ(t.mean, 0.5);
  t = FromYaml("train:\n  computation_time: {mean: 0.2, stdev: 0.01}\n").train.computation_time;
  EXPECT_EQ(t.kind, Kind::kNormal);
  EXPECT_DOUBLE_EQ(t.stdev, 0.01);
  t = FromYaml("train:\n  computation_time: {type: uniform, min: 0.1, max: 0.3}\n")
          .train.computation_time;
  EXPECT_EQ(t.kind, Kind::kUniform);
  EXPECT_DOUBLE_EQ(t.Mean(), 0.2);
  t = FromYaml("train:\n  computation_time: {type: gamma, shape: 2, scale: 0.1}\n")
          .train.computation_time;
  EXPECT_DOUBLE_EQ(t.Mean(), 0.2);
  t = FromYaml("train:\n  computation_time: {type: exponential, scale: 0.1}\n")
          .train.computation_time;
  EXPECT_EQ(t.kind, Kind::kExponential);
  t = FromYaml("train:\n  computation_time: {type: poisson, lam: 3}\n").train.computation_time;
  EXPECT_EQ(t.kind, Kind::kPoisson);
  EXPECT_NE(UsageErrorOf([] {
              FromYaml("train:\n  computation_time: {type: zipf}\n");
            }).find("unknown distribution"),
            std::string::npos);
  EXPECT_NE(UsageErrorOf([] {
              FromYaml("train:\n  computation_time: -1\n");
            }).find("train.computation_time"),
            std::string::npos);
}

// DLIO's reader.preprocess_time: the forms of computation_time, plus DLIO's flat
// preprocess_time_stdev, which makes a constant a normal; beside a distribution it is refused.
TEST(ConfigTest, PreprocessTimeForms) {
  using Kind = TimeDistribution::Kind;
  EXPECT_EQ(PreprocessTime(WorkloadConfig().reader).Mean(), 0);  // DLIO's default: none
  auto c = FromYaml("reader:\n  preprocess_time: 0.004\n");
  EXPECT_EQ(PreprocessTime(c.reader).kind, Kind::kConstant);
  EXPECT_DOUBLE_EQ(PreprocessTime(c.reader).mean, 0.004);
  c = FromYaml("reader:\n  preprocess_time_stdev: 0.001\n  preprocess_time: 0.004\n");
  auto t = PreprocessTime(c.reader);
  EXPECT_EQ(t.kind, Kind::kNormal);
  EXPECT_DOUBLE_EQ(t.mean, 0.004);
  EXPECT_DOUBLE_EQ(t.stdev, 0.001);
  t = PreprocessTime(FromYaml("reader:\n  preprocess_time: {mean: 0.01, stdev: 0.002}\n").reader);
  EXPECT_EQ(t.kind, Kind::kNormal);
  EXPECT_DOUBLE_EQ(t.stdev, 0.002);
  t = PreprocessTime(
      FromYaml("reader:\n  preprocess_time: {type: gamma, shape: 2, scale: 0.001}\n").reader);
  EXPECT_DOUBLE_EQ(t.Mean(), 0.002);
  EXPECT_NE(UsageErrorOf([] {
              FromYaml("reader:\n  preprocess_time: -0.1\n");
            }).find("reader.preprocess_time"),
            std::string::npos);
  EXPECT_NE(UsageErrorOf([] {
              FromYaml("reader:\n  preprocess_time_stdev: -1\n");
            }).find("reader.preprocess_time_stdev"),
            std::string::npos);
  const std::string both = UsageErrorOf([] {
    LoadWorkload("resnet50_h100", {"reader.preprocess_time={type: uniform, min: 0, max: 0.01}",
                                   "reader.preprocess_time_stdev=0.001"});
  });
  EXPECT_NE(both.find("reader.preprocess_time_stdev goes with a constant"), std::string::npos)
      << both;
  // Acted on: no "accepts but does not act on" warning; kept in the resolved YAML.
  std::vector<std::string> warnings;
  c = FromYaml("reader:\n  preprocess_time: 0.004\n  preprocess_time_stdev: 0.001\n", &warnings);
  EXPECT_TRUE(warnings.empty());
  const std::string yaml = ToYaml(c);
  EXPECT_NE(yaml.find("preprocess_time: 0.004"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("preprocess_time_stdev: 0.001"), std::string::npos) << yaml;
}

TEST(ConfigTest, OverridesInBothForms) {
  WorkloadConfig c;
  std::vector<std::string> w;
  ApplyOverride("dataset.num_files_train=16", c, w);
  EXPECT_EQ(c.dataset.num_files_train, 16u);
  ApplyOverride("++workload.dataset.num_files_train=17", c, w);
  EXPECT_EQ(c.dataset.num_files_train, 17u);
  ApplyOverride("train.computation_time={mean: 0.1, stdev: 0.02}", c, w);
  EXPECT_DOUBLE_EQ(c.train.computation_time.stdev, 0.02);
  ApplyOverride("storage.storage_options.endpoint_url=http://127.0.0.1:9000", c, w);
  EXPECT_EQ(c.storage.storage_options.at("endpoint_url"), "http://127.0.0.1:9000");
  EXPECT_NE(
      UsageErrorOf([&] { ApplyOverride("dataset.num_files_train", c, w); }).find("not key=value"),
      std::string::npos);
  const std::string e = UsageErrorOf([&] { ApplyOverride("reader.batchsize=4", c, w); });
  EXPECT_NE(e.find("command-line override 'reader.batchsize=4'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'reader.batch_size'"), std::string::npos) << e;
}

TEST(ConfigTest, LegacyNamesAndModelScalar) {
  const auto c =
      FromYaml("model: unet3d\ndataset:\n  record_length: 4096\n  record_length_stdev: 10\n");
  EXPECT_EQ(c.model.name, "unet3d");
  EXPECT_DOUBLE_EQ(c.dataset.record_length_bytes, 4096);
  EXPECT_DOUBLE_EQ(c.dataset.record_length_bytes_stdev, 10);
  EXPECT_EQ(FromYaml("model:\n  model_size: 99\n").model.model_size_bytes, 99u);
}

TEST(ConfigTest, UnknownWorkloadSuggestsBuiltin) {
  const std::string e = UsageErrorOf([] { LoadWorkload("resnet50_h10", {}); });
  EXPECT_NE(e.find("did you mean 'resnet50_h100'"), std::string::npos) << e;
}

TEST(ConfigTest, ResolvedYamlRoundTrips) {
  const auto a =
      LoadWorkload("unet3d_h100", {"train.computation_time={mean: 0.3, stdev: 0.05}"}).config;
  WorkloadConfig b;
  std::vector<std::string> w;
  ApplyYaml(ToYaml(a), "resolved.yaml", b, w);
  EXPECT_EQ(ToYaml(a).substr(ToYaml(a).find('\n')), ToYaml(b).substr(ToYaml(b).find('\n')));
  // The resolved YAML carries the keys read but not acted on with the built-in's values:
  // trainbench's own, no warning (issue 46.24: `run` warned about `config`'s own keys).
  EXPECT_TRUE(w.empty()) << w.front();
  // One changed from the built-in's still warns, once.
  std::string changed = ToYaml(a);
  const size_t at = changed.find("data_loader: ");
  ASSERT_NE(at, std::string::npos);
  changed.replace(at, changed.find('\n', at) - at, "data_loader: dali");
  WorkloadConfig c;
  ApplyYaml(changed, "resolved.yaml", c, w);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("resolved.yaml: DLIO keys trainbench accepts but does not act on: "
                      "reader.data_loader"),
            std::string::npos)
      << w[0];
}

TEST(ConfigTest, DatasetUriJoinsStorageRoot) {
  WorkloadConfig c;
  c.dataset.data_folder = "data/x";
  EXPECT_EQ(DatasetUri(c), "data/x");
  c.storage.storage_root = "/mnt/fs";
  EXPECT_EQ(DatasetUri(c), "/mnt/fs/data/x");
  c.storage.storage_type = StorageType::kS3;
  c.storage.storage_root = "bucket";
  EXPECT_EQ(DatasetUri(c), "s3://bucket/data/x");
  c.dataset.data_folder = "file:///tmp/y";
  EXPECT_EQ(DatasetUri(c), "file:///tmp/y");
}

TEST(DataSizeTest, MlperfRule) {
  auto c = LoadWorkload("resnet50_h100", {}).config;
  // 500 x 400 x 8 = 1.6M samples beats 5 x 1 x 64 GiB / 114660 B = 2.996M? No: memory wins.
  auto s = ComputeDataSize(c, 8, 1, 64);
  const uint64_t by_memory = static_cast<uint64_t>(std::ceil(5.0 * 64 * 1073741824.0 / 114660.07));
  EXPECT_EQ(s.samples, std::max<uint64_t>(1600000, by_memory));
  EXPECT_EQ(s.files, (s.samples + 1250) / 1251);
  s = ComputeDataSize(c, 64, 1, 1);
  EXPECT_EQ(s.samples, 500u * 400 * 64);
  EXPECT_EQ(s.files, (s.samples + 1250) / 1251);
}

// Every DLIO workload file loads and resolves to the values it states.
TEST(DlioCompatibilityTest, EveryDlioWorkloadLoads) {
  namespace fs = std::filesystem;
  const fs::path dir = TRAINBENCH_DLIO_WORKLOADS;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const auto loaded = LoadWorkload(entry.path().string(), {});
    // As the commands load it: its format is a known one, and its checks pass.
    EXPECT_NO_THROW(formats::CheckFormat(loaded.config));
    const YAML::Node doc = YAML::LoadFile(entry.path().string());
    const auto& c = loaded.config;
    // Values the file states come through.
    if (doc["dataset"]) {
      const auto d = doc["dataset"];
      if (d["num_files_train"]) {
        EXPECT_EQ(c.dataset.num_files_train, d["num_files_train"].as<uint64_t>());
      }
      if (d["num_samples_per_file"]) {
        EXPECT_EQ(c.dataset.num_samples_per_file, d["num_samples_per_file"].as<uint64_t>());
      }
      if (d["record_length_bytes"]) {
        EXPECT_DOUBLE_EQ(c.dataset.record_length_bytes, d["record_length_bytes"].as<double>());
      }
      if (d["record_length_bytes_stdev"]) {
        EXPECT_DOUBLE_EQ(c.dataset.record_length_bytes_stdev,
                         d["record_length_bytes_stdev"].as<double>());
      }
      if (d["data_folder"]) {
        EXPECT_EQ(c.dataset.data_folder, d["data_folder"].as<std::string>());
      }
      if (d["format"]) {
        EXPECT_EQ(c.dataset.format, d["format"].as<std::string>());
      }
      if (d["file_prefix"]) {
        EXPECT_EQ(c.dataset.file_prefix, d["file_prefix"].as<std::string>());
      }
    }
    if (doc["reader"]) {
      const auto r = doc["reader"];
      if (r["batch_size"]) {
        EXPECT_EQ(c.reader.batch_size, r["batch_size"].as<uint64_t>());
      }
      if (r["read_threads"]) {
        EXPECT_EQ(c.reader.read_threads, r["read_threads"].as<uint64_t>());
      }
      if (r["transfer_size"]) {
        EXPECT_EQ(c.reader.transfer_size, r["transfer_size"].as<uint64_t>());
      }
      if (r["sample_shuffle"]) {
        EXPECT_EQ(ToString(c.reader.sample_shuffle), r["sample_shuffle"].as<std::string>());
      }
      if (r["shuffle_size"]) {
        EXPECT_EQ(c.reader.shuffle_size, r["shuffle_size"].as<uint64_t>());
      }
    }
    if (doc["train"]) {
      const auto t = doc["train"];
      if (t["epochs"]) {
        EXPECT_EQ(c.train.epochs, t["epochs"].as<uint64_t>());
      }
      if (t["computation_time"]) {
        EXPECT_DOUBLE_EQ(c.train.computation_time.mean, t["computation_time"].as<double>());
      }
      if (t["total_training_steps"]) {
        EXPECT_EQ(c.train.total_training_steps, t["total_training_steps"].as<int64_t>());
      }
      if (t["seed_change_epoch"]) {
        EXPECT_EQ(c.train.seed_change_epoch, t["seed_change_epoch"].as<bool>());
      }
    }
    if (doc["checkpoint"]) {
      const auto k = doc["checkpoint"];
      if (k["checkpoint_folder"]) {
        EXPECT_EQ(c.checkpoint.checkpoint_folder, k["checkpoint_folder"].as<std::string>());
      }
      if (k["epochs_between_checkpoints"]) {
        EXPECT_EQ(c.checkpoint.epochs_between_checkpoints,
                  k["epochs_between_checkpoints"].as<uint64_t>());
      }
      if (k["steps_between_checkpoints"]) {
        EXPECT_EQ(c.checkpoint.steps_between_checkpoints,
                  k["steps_between_checkpoints"].as<int64_t>());
      }
      if (k["num_checkpoints_write"]) {
        EXPECT_EQ(c.checkpoint.num_checkpoints_write, k["num_checkpoints_write"].as<int64_t>());
      }
      if (k["fsync"]) {
        EXPECT_EQ(c.checkpoint.fsync, k["fsync"].as<bool>());
      }
    }
    if (doc["metric"] && doc["metric"]["au"]) {
      EXPECT_DOUBLE_EQ(c.metric.au, doc["metric"]["au"].as<double>());
    }
    if (doc["model"] && doc["model"]["model_size"]) {
      EXPECT_EQ(c.model.model_size_bytes, doc["model"]["model_size"].as<uint64_t>());
    }
    if (doc["storage"] && doc["storage"]["storage_root"]) {
      EXPECT_EQ(c.storage.storage_root, doc["storage"]["storage_root"].as<std::string>());
    }
    if (doc["framework"]) {
      EXPECT_EQ(c.framework, doc["framework"].as<std::string>());
    }
    ++count;
  }
  EXPECT_GE(count, 20);
}

}  // namespace
}  // namespace trainbench::config

namespace trainbench::config {
namespace {

// Every built-in workload is of a round, and the v3.0 ones are the round's new accelerators
// and its checkpointing workloads.
TEST(ConfigTest, EveryBuiltinWorkloadHasItsMlperfRound) {
  EXPECT_EQ(MlperfRound("resnet50_b200"), "v3.0");
  EXPECT_EQ(MlperfRound("unet3d_mi355"), "v3.0");
  EXPECT_EQ(MlperfRound("llama3_8b"), "v3.0");
  EXPECT_EQ(MlperfRound("resnet50_h100"), "v2.0");
  EXPECT_EQ(MlperfRound("_b200"), "v2.0");  // a suffix alone is no workload name
  size_t v3 = 0;
  for (const auto& b : BuiltinWorkloads()) v3 += MlperfRound(b.name) == "v3.0";
  EXPECT_GT(v3, 0u);
  EXPECT_LT(v3, BuiltinWorkloads().size());
}

}  // namespace
}  // namespace trainbench::config
