#include "app/run/run_rules.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>

#include "sim/llm_checkpoint.h"

namespace trainbench::app {
namespace {

// Whether two local paths are on one file system (the same st_dev); none when either
// cannot be stat'ed (a data folder not yet made).
std::optional<bool> SameFileSystem(const std::string& a, const std::string& b) {
  struct stat sa {};
  struct stat sb {};
  if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return std::nullopt;
  return sa.st_dev == sb.st_dev;
}

}  // namespace

report::RulesReport CheckRunRules(const sim::RankLayout& layout, const storage::Storage& data,
                                  const std::string& data_what,
                                  std::optional<uint64_t> dataset_bytes,
                                  const std::string& results_folder) {
  report::RulesInput in;
  for (const auto& rank : layout.ranks) {
    auto host = std::find_if(in.hosts.begin(), in.hosts.end(),
                             [&](const report::RulesHost& h) { return h.host == rank.host; });
    if (host == in.hosts.end())
      host = in.hosts.insert(in.hosts.end(),
                             report::RulesHost{rank.host, rank.memory_bytes, rank.cpu_count, 0});
    host->accelerators += rank.accelerators;
  }
  in.dataset_bytes = dataset_bytes;
  in.data_what = data_what;
  const auto local = data.LocalPath("");
  in.data_is_local = local.has_value();
  // Object storage is never the results' file system.
  in.results_on_data_file_system = local ? SameFileSystem(*local, results_folder) : false;
  return report::CheckRules(in);
}

void AddCheckpointRules(const config::WorkloadConfig& config, uint64_t ranks,
                        report::RulesReport& report) {
  const uint64_t job =
      sim::IsSizedTransformer(config.model) ? sim::CheckpointJobRanks(config.model, ranks) : ranks;
  report.summary["checkpoint_mode"] = config::ToString(config.checkpoint.mode);
  report.summary["checkpoint_job_ranks"] = job;
  const bool subset =
      config.checkpoint.mode == config::CheckpointMode::kSubset || config.model.parallelism.data;
  if (!subset) return;
  const std::string issue = sim::SubsetRuleIssue(config, ranks);
  report.summary["rules"]["checkpoint_subset"] = {{"passed", issue.empty()}, {"issue", issue}};
  report.table += fmt::format("rules: subset mode, {} of the job's {} ranks: {}\n", ranks, job,
                              issue.empty() ? "ok (llama3_8b on 8 processes)" : "NO");
  if (!issue.empty()) report.warnings.push_back(issue);
}

}  // namespace trainbench::app
