#include "stage/campaign_folders.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace trainbench::stage {
namespace fs = std::filesystem;
namespace {

void AddJob(const fs::path& folder, std::vector<CampaignJob>& jobs) {
  const fs::path file = folder / "summary.json";
  std::ifstream in(file);
  nlohmann::json summary;
  try {
    summary = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw RuntimeError(
        fmt::format("{} is not JSON ({}): remove the folder from the report or "
                    "fix the file",
                    file.string(), e.what()));
  }
  if (auto job = JobFromSummary(summary, folder.string())) jobs.push_back(*job);
}

}  // namespace

std::vector<CampaignJob> LoadCampaignJobs(const std::vector<std::string>& dirs) {
  std::vector<CampaignJob> jobs;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      throw UsageError(fmt::format("--report {}: no such folder", dir));
    if (fs::exists(fs::path(dir) / "summary.json", ec)) {
      AddJob(dir, jobs);
      continue;
    }
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.is_directory() && fs::exists(entry.path() / "summary.json"))
        folders.push_back(entry.path());
    if (folders.empty())
      throw UsageError(
          fmt::format("--report {}: neither a result folder (with summary.json) nor "
                      "a folder of them",
                      dir));
    std::sort(folders.begin(), folders.end());
    for (const auto& f : folders) AddJob(f, jobs);
  }
  return jobs;
}

}  // namespace trainbench::stage
