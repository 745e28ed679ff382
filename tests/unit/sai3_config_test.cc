// A sai3-bench config as `trainbench run` takes it: the vendored configs' keys mapped
// (config/sai3/sai3_config.h), refusals naming the key, the objects prepare plans
// (ops/sai3_objects.h) and the op mix's weights (ops/op_mix.h).
#include "config/sai3/sai3_config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "common/error.h"
#include "common/random.h"
#include "common/strings.h"
#include "ops/op_mix.h"
#include "ops/sai3_objects.h"

namespace trainbench {
namespace {

const std::string kConfigs = std::string(TRAINBENCH_SOURCE_DIR) + "/tests/data/sai3-bench/";

std::string Refusal(const std::string& file, const std::vector<std::string>& overrides) {
  try {
    config::LoadSai3Config(file, overrides);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::string WriteConfig(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("sai3_config_test_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

TEST(Sai3ConfigTest, Resnet50OneHostMapsEveryKeyItActsOn) {
  const std::string file = kConfigs + "resnet50_1-host.yaml";
  ASSERT_TRUE(config::IsSai3Config(file));
  const auto loaded = config::LoadSai3Config(file, {"target=file:///tmp/r50"});
  const config::Sai3Config& c = loaded.config;
  EXPECT_EQ(c.target, "file:///tmp/r50/");
  EXPECT_EQ(c.duration_s, 300);
  EXPECT_EQ(c.concurrency, 64u);
  EXPECT_EQ(c.interval_s, 1);
  EXPECT_TRUE(c.perf_log);
  ASSERT_EQ(c.ensure_objects.size(), 1u);
  // The base_uri was the file's target: it follows the one given on the command line.
  EXPECT_EQ(c.ensure_objects[0].base_uri, "file:///tmp/r50/");
  EXPECT_EQ(c.ensure_objects[0].count, 614400u);
  EXPECT_EQ(c.ensure_objects[0].sizes.type, "lognormal");
  EXPECT_EQ(c.ensure_objects[0].sizes.mean, 229376);
  EXPECT_EQ(c.ensure_objects[0].sizes.std_dev, 160563);
  EXPECT_EQ(c.ensure_objects[0].sizes.min, 32768u);
  EXPECT_EQ(c.ensure_objects[0].sizes.max, 1048576u);
  EXPECT_FALSE(c.ensure_objects[0].zero_fill);
  EXPECT_EQ(c.tree.width, 64u);
  EXPECT_EQ(c.tree.depth, 2u);
  EXPECT_EQ(c.tree.files_per_dir, 150u);
  EXPECT_TRUE(c.tree.bottom);
  EXPECT_EQ(c.tree.dir_mask, "scan.d%d_w%d.dir");
  EXPECT_TRUE(c.force_overwrite);
  EXPECT_FALSE(c.cleanup);
  ASSERT_EQ(c.workload.size(), 1u);
  EXPECT_EQ(c.workload[0].op, "get");
  EXPECT_EQ(c.workload[0].path, "scan.d*_w*.dir/**/*");
  EXPECT_EQ(c.workload[0].weight, 100);
  EXPECT_EQ(c.agents, 0u);
  // What it does not act on is said, with why.
  ASSERT_EQ(loaded.warnings.size(), 1u);
  EXPECT_NE(loaded.warnings[0].find("distributed.stages"), std::string::npos);
  EXPECT_NE(loaded.warnings[0].find("prepare.prepare_strategy"), std::string::npos);
}

TEST(Sai3ConfigTest, EveryVendoredConfigLoadsWithATargetGiven) {
  for (const char* name : {"resnet50_1-host", "resnet50_4-hosts", "unet3d_1-host"}) {
    SCOPED_TRACE(name);
    const auto loaded =
        config::LoadSai3Config(kConfigs + name + ".yaml", {"target=s3://bucket/p/"});
    EXPECT_EQ(loaded.config.ensure_objects.at(0).base_uri, "s3://bucket/p/");
  }
  EXPECT_EQ(
      config::LoadSai3Config(kConfigs + "resnet50_4-hosts.yaml", {"target=/tmp/x"}).config.agents,
      4u);
}

TEST(Sai3ConfigTest, OverridesScaleAConfigDown) {
  const auto c =
      config::LoadSai3Config(
          kConfigs + "resnet50_1-host.yaml",
          {"target=/tmp/x/", "duration=2s", "concurrency=4", "prepare.ensure_objects.0.count=24",
           "prepare.ensure_objects.size_spec.max=65536", "prepare.directory_structure.width=2",
           "prepare.directory_structure.files_per_dir=6", "perf_log.interval=0.5s",
           "workload.0.weight=7"})
          .config;
  EXPECT_EQ(c.duration_s, 2);
  EXPECT_EQ(c.concurrency, 4u);
  EXPECT_EQ(c.ensure_objects[0].count, 24u);
  EXPECT_EQ(c.ensure_objects[0].sizes.max, 65536u);
  EXPECT_EQ(c.tree.width, 2u);
  EXPECT_EQ(c.interval_s, 0.5);
  EXPECT_EQ(c.workload[0].weight, 7);
}

TEST(Sai3ConfigTest, RefusalsNameTheKeyAndWhatToGive) {
  const std::string file = kConfigs + "resnet50_1-host.yaml";
  // The file's own target is GCS, which trainbench does not reach.
  EXPECT_NE(Refusal(file, {}).find("target=file:///"), std::string::npos);
  EXPECT_NE(Refusal(file, {"target=/tmp/x", "concurency=4"}).find("did you mean 'concurrency'"),
            std::string::npos);
  EXPECT_NE(Refusal(file, {"target=/tmp/x", "prepare.ensure_objects.0.cout=4"})
                .find("did you mean 'prepare.ensure_objects[].count'"),
            std::string::npos);
  EXPECT_NE(Refusal(file, {"target=/tmp/x", "concurrency=0"}).find("concurrency"),
            std::string::npos);
  EXPECT_NE(Refusal(file, {"target=/tmp/x", "duration=soon"}).find("duration"), std::string::npos);
  EXPECT_NE(
      Refusal(file, {"target=/tmp/x", "prepare.ensure_objects.0.dedup_factor=3"}).find("give 1"),
      std::string::npos);
  EXPECT_NE(Refusal(file, {"target=/tmp/x", "workload.0.op=gett"}).find("did you mean 'get'"),
            std::string::npos);
  EXPECT_NE(Refusal(file, {"target=/tmp/x", "prepare.ensure_objects.0.fill=[a, b]"})
                .find("prepare.ensure_objects[0].fill: expected a single value"),
            std::string::npos);
  // More objects than the folders hold.
  EXPECT_NE(
      Refusal(file, {"target=/tmp/x", "prepare.directory_structure.width=2"}).find("files_per_dir"),
      std::string::npos);
  const std::string multi = WriteConfig(
      "target: /tmp/x/\nmulti_endpoint:\n  endpoints: [a, b]\nworkload:\n  - op: list\n"
      "    path: a/\n");
  EXPECT_NE(Refusal(multi, {}).find("multi_endpoint: not supported"), std::string::npos);
  std::filesystem::remove(multi);
}

TEST(Sai3ConfigTest, SizesAndDurationsInSai3BenchSpellings) {
  EXPECT_EQ(config::Sai3Bytes("1,048,576"), 1048576u);
  EXPECT_EQ(config::Sai3Bytes("32KB"), 32000u);
  EXPECT_EQ(config::Sai3Bytes("1MiB"), 1048576u);
  EXPECT_EQ(config::Sai3Bytes("500_000"), 500000u);
  EXPECT_THROW(config::Sai3Bytes("12 furlongs"), std::invalid_argument);
  EXPECT_EQ(config::Sai3Seconds("5m"), 300);
  EXPECT_EQ(config::Sai3Seconds("60s"), 60);
  EXPECT_EQ(config::Sai3Seconds("300"), 300);
  EXPECT_EQ(config::Sai3Seconds("2h"), 7200);
  EXPECT_THROW(config::Sai3Seconds("-1s"), std::invalid_argument);
}

TEST(Sai3ConfigTest, GlobsMatchAsSai3BenchPathsDo) {
  EXPECT_TRUE(
      GlobMatch("scan.d*_w*.dir/**/*", "scan.d1_w2.dir/scan.d2_w1.dir/prepared-00000000.dat"));
  EXPECT_TRUE(GlobMatch("scan.d*_w*.dir/**/*", "scan.d1_w2.dir/x.dat"));
  EXPECT_FALSE(GlobMatch("scan.d*_w*.dir/**/*", "trainbench_manifest.json"));
  EXPECT_TRUE(GlobMatch("data/prepared-*.dat", "data/prepared-00000001.dat"));
  EXPECT_FALSE(GlobMatch("data/prepared-*.dat", "data/sub/prepared-00000001.dat"));
  EXPECT_TRUE(GlobMatch("data/**", "data/a/b"));
  EXPECT_TRUE(GlobMatch("a?c", "abc"));
  EXPECT_FALSE(GlobMatch("a?c", "a/c"));
  EXPECT_EQ(GlobFolder("scan.d*_w*.dir/**/*"), "");
  EXPECT_EQ(GlobFolder("data/x/prepared-*.dat"), "data/x/");
  EXPECT_EQ(GlobFolder("data/"), "data/");
}

TEST(Sai3ConfigTest, PrepareNamesObjectsInTheTreeAtSizesInRange) {
  auto c = config::LoadSai3Config(kConfigs + "resnet50_1-host.yaml",
                                  {"target=/tmp/x/", "prepare.ensure_objects.0.count=40",
                                   "prepare.directory_structure.width=2",
                                   "prepare.directory_structure.files_per_dir=10"})
               .config;
  const auto objects = ops::PlanObjectSet(c, 0);
  ASSERT_EQ(objects.size(), 40u);
  // Four leaves (width 2, depth 2), object i in leaf i mod 4.
  EXPECT_EQ(objects[0].path, "scan.d1_w1.dir/scan.d2_w1.dir/prepared-00000000.dat");
  EXPECT_EQ(objects[1].path, "scan.d1_w1.dir/scan.d2_w2.dir/prepared-00000001.dat");
  EXPECT_EQ(objects[3].path, "scan.d1_w2.dir/scan.d2_w2.dir/prepared-00000003.dat");
  EXPECT_EQ(objects[4].path, "scan.d1_w1.dir/scan.d2_w1.dir/prepared-00000004.dat");
  for (const auto& o : objects) {
    EXPECT_GE(o.size, 32768u);
    EXPECT_LE(o.size, 1048576u);
    EXPECT_TRUE(GlobMatch(c.workload[0].path, o.path)) << o.path;
  }
  EXPECT_EQ(ops::PlanObjectSet(c, 0)[7].size, objects[7].size);  // the same on every rank
  c.tree.bottom = false;
  EXPECT_EQ(ops::TreeFolders(c.tree), 6u);
  EXPECT_EQ(ops::TreeFolder(c.tree, 1), "scan.d1_w2.dir/");
  EXPECT_EQ(ops::TreeFolder(c.tree, 2), "scan.d1_w1.dir/scan.d2_w1.dir/");
}

TEST(Sai3ConfigTest, LognormalSizesHaveTheAskedMean) {
  config::Sai3Sizes s;
  s.type = "lognormal";
  s.mean = 100000;
  s.std_dev = 30000;
  s.min = 1;
  s.max = 10000000;
  Random random(7);
  double sum = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) sum += static_cast<double>(ops::DrawObjectSize(s, random));
  EXPECT_NEAR(sum / n, 100000, 2000);
}

TEST(Sai3ConfigTest, TheOpMixDrawsOpsByWeight) {
  std::vector<ops::MixOp> ops(4);
  ops[0].op = ops::ReplayOp::kGet;
  ops[0].weight = 60;
  ops[0].objects = {0, 1};
  ops[1].op = ops::ReplayOp::kPut;
  ops[1].weight = 25;
  ops[1].path = "out/";
  ops[1].sizes.min = ops[1].sizes.max = 10;
  ops[2].op = ops::ReplayOp::kHead;
  ops[2].weight = 0;  // never drawn
  ops[2].objects = {0};
  ops[3].op = ops::ReplayOp::kList;
  ops[3].weight = 15;
  ops[3].path = "data/";
  ops::OpMix mix(ops, {100, 200}, INT64_MAX, 42, "trainbench-r0-");
  std::map<ops::ReplayOp, int> drawn;
  ops::ReplayFigures figures;
  ops::WorkerOp op;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(mix.Next(op, figures));
    ++drawn[op.op];
    if (op.op == ops::ReplayOp::kGet) {
      EXPECT_EQ(op.bytes, op.object == 0 ? 100u : 200u);
    }
    if (op.op == ops::ReplayOp::kPut) {
      EXPECT_TRUE(StartsWith(op.name, "out/trainbench-r0-"));
      EXPECT_EQ(op.bytes, 10u);
    }
    if (op.op == ops::ReplayOp::kList) {
      EXPECT_EQ(op.name, "data/");
    }
  }
  EXPECT_NEAR(drawn[ops::ReplayOp::kGet] / double(n), 0.60, 0.01);
  EXPECT_NEAR(drawn[ops::ReplayOp::kPut] / double(n), 0.25, 0.01);
  EXPECT_NEAR(drawn[ops::ReplayOp::kList] / double(n), 0.15, 0.01);
  EXPECT_EQ(drawn[ops::ReplayOp::kHead], 0);
  // Past its end the mix has nothing more.
  ops::OpMix ended(ops, {100, 200}, 0, 42, "x");
  EXPECT_FALSE(ended.Next(op, figures));
}

TEST(Sai3ConfigTest, AGetThatMatchesNothingIsRefused) {
  auto c = config::LoadSai3Config(kConfigs + "resnet50_1-host.yaml", {"target=/tmp/x/"}).config;
  const auto ops = ops::MixOps(c, {"trainbench_manifest.json", "other/prepared-00000000.dat"});
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_TRUE(ops[0].objects.empty());
  EXPECT_THROW(ops::OpMix(ops, {1, 1}, INT64_MAX, 1, "x"), UsageError);
  const auto matched = ops::MixOps(c, {"scan.d1_w1.dir/scan.d2_w1.dir/prepared-00000000.dat"});
  EXPECT_EQ(matched[0].objects.size(), 1u);
}

}  // namespace
}  // namespace trainbench
