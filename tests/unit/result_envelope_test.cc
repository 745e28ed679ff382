// The one result record's envelope: written first in summary.json, read back from every
// version (the envelope's own keys, and the summaries written before it), refused for what
// is no trainbench summary; the config rendered as JSON from the YAML config.yaml holds.
#include "report/result_envelope.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "config/workload_yaml.h"

namespace trainbench {
namespace {

report::ResultEnvelope Stage() {
  report::ResultEnvelope e;
  e.kind = "stage";
  e.workload = "https://example.org/data.tar";
  e.started = "20261125T010000Z";
  e.finished = "20261125T010500Z";
  e.complete = false;
  e.stop_reason = "interrupted";
  e.host_names = {"a", "b"};
  e.config = {{"streams", 4}};
  return e;
}

TEST(ResultEnvelope, ComesFirstAndReadsBack) {
  const auto summary =
      report::WithEnvelope(Stage(), {{"bytes", 10}, {"kind", "ignored: the envelope's wins"}});
  const auto first = summary.begin();
  EXPECT_EQ(first.key(), "kind");
  EXPECT_EQ(summary["kind"], "stage");
  EXPECT_EQ(summary["bytes"], 10);
  const auto back = report::EnvelopeOf(nlohmann::json::parse(summary.dump()), "x/summary.json");
  EXPECT_EQ(back.kind, "stage");
  EXPECT_EQ(back.workload, "https://example.org/data.tar");
  EXPECT_EQ(back.started, "20261125T010000Z");
  EXPECT_EQ(back.finished, "20261125T010500Z");
  EXPECT_FALSE(back.complete);
  EXPECT_EQ(back.stop_reason, "interrupted");
  EXPECT_EQ(back.host_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(back.version, TRAINBENCH_VERSION);
  EXPECT_EQ(back.config["streams"], 4);
}

TEST(ResultEnvelope, ReadsSummariesWrittenBeforeIt) {
  const nlohmann::json run = {{"trainbench_version", "0.0.9"},
                              {"phases", nlohmann::json::array()},
                              {"workload", "unet3d_h100"},
                              {"start", "20260101T000000Z"},
                              {"end", "20260101T000100Z"},
                              {"complete", true},
                              {"hostname", "vm"}};
  const auto e = report::EnvelopeOf(run, "old/summary.json");
  EXPECT_EQ(e.kind, "run");
  EXPECT_EQ(e.workload, "unet3d_h100");
  EXPECT_EQ(e.started, "20260101T000000Z");
  EXPECT_EQ(e.finished, "20260101T000100Z");
  EXPECT_TRUE(e.complete);
  EXPECT_EQ(e.version, "0.0.9");
  EXPECT_EQ(e.host_names, std::vector<std::string>{"vm"});

  auto checkpoint = run;
  checkpoint["checkpointing_only"] = true;
  EXPECT_EQ(report::EnvelopeOf(checkpoint, "c").kind, "checkpoint");
  EXPECT_EQ(report::EnvelopeOf({{"command", "stage"}, {"source", "s3://b/k"}}, "s").kind, "stage");
  EXPECT_EQ(report::EnvelopeOf({{"command", "stage"}, {"source", "s3://b/k"}}, "s").workload,
            "s3://b/k");
  EXPECT_EQ(report::EnvelopeOf({{"command", "train"}}, "t").kind, "staged_train");
}

TEST(ResultEnvelope, RefusesWhatIsNoSummaryNamingIt) {
  for (const auto& bad :
       {nlohmann::json::array(), nlohmann::json{{"kind", "movie"}}, nlohmann::json{{"hello", 1}}}) {
    try {
      report::EnvelopeOf(bad, "dir/summary.json");
      ADD_FAILURE() << bad.dump();
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("dir/summary.json"), std::string::npos) << e.what();
    }
  }
}

TEST(ResultEnvelope, LineNamesKindVersionAndFolder) {
  const auto line = report::LineEnvelope(Stage(), "/results/x");
  EXPECT_EQ(line["kind"], "stage");
  EXPECT_EQ(line["complete"], false);
  EXPECT_EQ(line["results"], "/results/x");
  EXPECT_EQ(line["version"], TRAINBENCH_VERSION);
}

TEST(WorkloadJson, TypesScalarsAsTheYamlSpellsThem) {
  const auto loaded = config::LoadWorkload("resnet50_h100", {"dataset.data_folder=/data/x"});
  const auto j = config::ToJson(loaded.config);
  EXPECT_EQ(j["model"]["name"], "resnet50");
  EXPECT_EQ(j["dataset"]["data_folder"], "/data/x");
  EXPECT_TRUE(j["reader"]["batch_size"].is_number_integer());
  EXPECT_TRUE(j["workflow"]["train"].is_boolean());
  EXPECT_DOUBLE_EQ(j["train"]["computation_time"].get<double>(), 0.224);
}

}  // namespace
}  // namespace trainbench
