#include "app/replay/oplog_job.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "ops/op_log_profile.h"

namespace trainbench::app {

JobReport CompareOpLogs(const std::vector<std::string>& files) {
  std::vector<std::string> names;
  std::vector<nlohmann::ordered_json> profiles;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& file : files) {
    const auto read = ops::ProfileOpLogFile(file);
    if (!read.dropped.empty())
      LogWarning(fmt::format("op-log {}: read up to its last whole line ({})", file, read.dropped));
    names.push_back(std::filesystem::path(file).filename().string());
    profiles.push_back(read.profile);
    rows.push_back({{"op_log", file}, {"profile", profiles.back()}});
  }
  JobReport report;
  report.reports = true;
  report.text = ops::ProfileTable(names, profiles);
  report.line = nlohmann::ordered_json{{"trainbench_oplog", rows}}.dump();
  return report;
}

}  // namespace trainbench::app
