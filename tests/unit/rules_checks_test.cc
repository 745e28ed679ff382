// MLPerf Storage's checks of a run's setup over several hosts (a test on one machine cannot
// make hosts differ): DLIO's per-host fields in GiB, the 5x memory rule over all hosts'
// memory, potential caching from each host's share, and the same accelerators per host.
#include "report/rules_checks.h"

#include <gtest/gtest.h>

#include "common/units.h"

namespace trainbench::report {
namespace {

constexpr uint64_t kGi = 1ull << 30;

RulesInput TwoHosts(uint64_t dataset_bytes, uint64_t accelerators_b) {
  RulesInput in;
  in.hosts = {{"a", 64 * kGi, 32, 4}, {"b", 128 * kGi, 64, accelerators_b}};
  in.dataset_bytes = dataset_bytes;
  in.results_on_data_file_system = false;
  return in;
}

TEST(RulesChecks, DlioFieldsInGibPerHost) {
  const auto r = CheckRules(TwoHosts(1000 * kGi, 4));
  EXPECT_EQ(r.summary["host_memory_GB"], nlohmann::json({64.0, 128.0}));
  EXPECT_EQ(r.summary["host_cpu_count"], nlohmann::json({32, 64}));
  EXPECT_DOUBLE_EQ(r.summary["data_size_per_host_GB"].get<double>(), 500.0);
  EXPECT_EQ(r.summary["potential_caching"], nlohmann::json({0, 0}));
  // 1000 GiB >= 5 x 192 GiB = 960 GiB.
  EXPECT_TRUE(r.summary["rules"]["dataset_5x_memory"]["passed"].get<bool>());
  EXPECT_TRUE(r.summary["rules"]["same_accelerators_per_host"]["passed"].get<bool>());
  EXPECT_TRUE(r.summary["rules"]["results_on_other_file_system"]["passed"].get<bool>());
  EXPECT_TRUE(r.warnings.empty());
}

TEST(RulesChecks, SmallDatasetAndUnevenHostsWarn) {
  // 900 GiB < 960 GiB; host b reads 3/4 of it (675 GiB > its 128 GiB: no caching there),
  // host a 225 GiB (over its 64 GiB too).
  auto r = CheckRules(TwoHosts(900 * kGi, 12));
  EXPECT_FALSE(r.summary["rules"]["dataset_5x_memory"]["passed"].get<bool>());
  EXPECT_FALSE(r.summary["rules"]["same_accelerators_per_host"]["passed"].get<bool>());
  EXPECT_DOUBLE_EQ(r.summary["data_size_per_host_GB"].get<double>(), 675.0);
  EXPECT_EQ(r.warnings.size(), 2u);
  // 100 GiB: host a's share (25 GiB) fits its memory, b's (75 GiB) fits too.
  r = CheckRules(TwoHosts(100 * kGi, 12));
  EXPECT_EQ(r.summary["potential_caching"], nlohmann::json({1, 1}));
}

TEST(RulesChecks, ResultsOnTheDataFileSystemWarnsAndUnknownDoesNot) {
  auto in = TwoHosts(1000 * kGi, 4);
  in.results_on_data_file_system = true;
  auto r = CheckRules(in);
  EXPECT_FALSE(r.summary["rules"]["results_on_other_file_system"]["passed"].get<bool>());
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("same file system"), std::string::npos);
  in.results_on_data_file_system.reset();
  r = CheckRules(in);
  EXPECT_TRUE(r.summary["rules"]["results_on_other_file_system"]["passed"].is_null());
  EXPECT_TRUE(r.warnings.empty());
}

TEST(RulesChecks, CheckpointingHasNoDatasetRule) {
  auto in = TwoHosts(0, 4);
  in.dataset_bytes.reset();
  const auto r = CheckRules(in);
  EXPECT_FALSE(r.summary.contains("data_size_per_host_GB"));
  EXPECT_FALSE(r.summary["rules"].contains("dataset_5x_memory"));
}

}  // namespace
}  // namespace trainbench::report
