// The one override grammar both configuration languages take (config/override.h): KEY=VALUE
// parsed alike, set into a YAML tree through maps and lists; and the workload loader's hook
// for storage.storage_options' names, whose table is the storage backend's.
#include "config/override.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <functional>
#include <string>

#include "common/error.h"
#include "config/workload_yaml.h"
#include "usage_error_of.h"

namespace trainbench::config {
namespace {

TEST(OverrideGrammar, ParsesKeyAndYamlValueAndHidesSecrets) {
  const Override o = ParseOverride("++dataset.num_files_train=16", "example: x=1");
  EXPECT_EQ(o.key, "dataset.num_files_train");
  EXPECT_EQ(o.value.as<int>(), 16);
  EXPECT_EQ(o.shown, "++dataset.num_files_train=16");
  const Override map = ParseOverride("storage.storage_options={a: 1, b: 2}", "");
  ASSERT_TRUE(map.value.IsMap());
  EXPECT_EQ(map.value["b"].as<int>(), 2);
  EXPECT_TRUE(ParseOverride("target=", "").value.IsNull());
  EXPECT_EQ(ParseOverride("storage.storage_options.secret_access_key=hunter2", "").shown,
            "storage.storage_options.secret_access_key=<redacted>");
  EXPECT_EQ(UsageErrorOf([] { ParseOverride("duration", "examples: duration=2s"); }),
            "override 'duration' is not key=value (examples: duration=2s)");
  EXPECT_EQ(UsageErrorOf([] { ParseOverride("=4", "example: x=1"); }),
            "override '=4' is not key=value (example: x=1)");
  EXPECT_NE(
      UsageErrorOf([] { ParseOverride("a=[", ""); }).find("override 'a=[': the value is not valid"),
      std::string::npos);
}

TEST(OverrideGrammar, SetsThroughMapsMakingThemOnTheWay) {
  YAML::Node root(YAML::NodeType::Map);
  const YAML::Node value = SetOverride(root, ParseOverride("reader.batch_size=7", ""));
  EXPECT_EQ(root["reader"]["batch_size"].as<int>(), 7);
  EXPECT_TRUE(root["reader"]["batch_size"].is(value));
  SetOverride(root, ParseOverride("reader.read_threads=2", ""));
  EXPECT_EQ(root["reader"]["batch_size"].as<int>(), 7);  // the map kept, not replaced
  EXPECT_EQ(root["reader"]["read_threads"].as<int>(), 2);
}

TEST(OverrideGrammar, SetsThroughListsByIndexOrTheirOneEntry) {
  YAML::Node root = YAML::Load("workload: [{op: get, path: a}]\nsets: [{n: 1}, {n: 2}]");
  SetOverride(root, ParseOverride("workload.0.path=b", ""));
  EXPECT_EQ(root["workload"][0]["path"].as<std::string>(), "b");
  SetOverride(root, ParseOverride("workload.weight=3", ""));  // the list's one entry
  EXPECT_EQ(root["workload"][0]["weight"].as<int>(), 3);
  SetOverride(root, ParseOverride("workload.1.op=put", ""));  // the next index adds one
  ASSERT_EQ(root["workload"].size(), 2u);
  EXPECT_EQ(root["workload"][1]["op"].as<std::string>(), "put");
  EXPECT_EQ(UsageErrorOf([&] { SetOverride(root, ParseOverride("sets.n=5", "")); }),
            "override 'sets.n=5': 'sets' is a list of 2: name the entry, e.g. sets.0.n");
  EXPECT_EQ(UsageErrorOf([&] { SetOverride(root, ParseOverride("sets.5.n=1", "")); }),
            "override 'sets.5.n=1': the list has 2 entries (index 2 adds one)");
  EXPECT_EQ(UsageErrorOf([&] { SetOverride(root, ParseOverride("sets.0=1", "")); }),
            "override 'sets.0=1': name a key of the entry");
}

TEST(OverrideGrammar, StorageOptionNamesGoThroughTheLoadersCheck) {
  const OptionNameCheck only_region = [](const std::string& name) {
    return name == "region" ? std::string() : "unknown option '" + name + "'";
  };
  WorkloadConfig c;
  std::vector<std::string> warnings;
  ApplyOverride("storage.storage_options.region=eu", c, warnings, only_region);
  EXPECT_EQ(c.storage.storage_options.at("region"), "eu");
  EXPECT_EQ(UsageErrorOf([&] {
              ApplyOverride("storage.storage_options.regoin=eu", c, warnings, only_region);
            }),
            "command-line override 'storage.storage_options.regoin=eu': storage.storage_options: "
            "expected a map of option: value; unknown option 'regoin'");
  EXPECT_NE(UsageErrorOf([&] {
              ApplyYaml("storage:\n  storage_options:\n    regoin: eu\n", "w.yaml", c, warnings,
                        only_region);
            }).find("w.yaml:3: storage.storage_options: "),
            std::string::npos);
  // Without a check (config/ alone) any name is read: the names are not config/'s.
  ApplyOverride("storage.storage_options.anything=1", c, warnings);
  EXPECT_EQ(c.storage.storage_options.at("anything"), "1");
}

}  // namespace
}  // namespace trainbench::config
