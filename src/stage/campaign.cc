#include "stage/campaign.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/json_fields.h"

namespace trainbench::stage {
namespace {

double Number(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

CampaignTotals Summarize(const std::vector<CampaignJob>& jobs) {
  CampaignTotals t;
  t.jobs = jobs.size();
  std::vector<double> walls;
  for (const auto& j : jobs) {
    (j.complete ? t.successful : t.failed) += 1;
    t.compute_hours += j.compute_s / 3600;
    t.transfer_hours += j.transfer_s / 3600;
    t.wasted_hours += j.wasted_s / 3600;
    t.wall_hours += j.wall_s / 3600;
    walls.push_back(j.wall_s);
  }
  if (walls.empty()) return t;
  t.mean_job_s = t.wall_hours * 3600 / static_cast<double>(walls.size());
  std::sort(walls.begin(), walls.end());
  const size_t n = walls.size();
  t.median_job_s = n % 2 ? walls[n / 2] : (walls[n / 2 - 1] + walls[n / 2]) / 2;
  return t;
}

std::optional<CampaignJob> JobFromSummary(const nlohmann::json& s, const std::string& folder) {
  if (!s.is_object()) return std::nullopt;
  CampaignJob j;
  j.folder = folder;
  j.complete = s.value("complete", false);
  // A stage's account, or a `train --stage-to`'s (the same account with compute_s added):
  // absent shares are 0.
  j.transfer_s = Number(s, "transfer_s");
  j.wasted_s = Number(s, "retry_wasted_s");
  const std::string command = s.value("command", std::string());
  if (command == "stage") {
    j.kind = "stage";
    j.wall_s = Number(s, "wall_s");
    j.compute_s = Number(s, "compute_s");
    return j;
  }
  if (s.contains("run_seconds")) {
    j.kind = "run";
    j.wall_s = Number(s, "run_seconds");
    j.compute_s = Number(s, "compute_s");
    return j;
  }
  if (s.contains("train_seconds") || command == "train") {
    j.kind = "train";
    j.wall_s = s.contains("train_seconds") ? Number(s, "train_seconds") : Number(s, "wall_s");
    j.compute_s = s.contains("compute_s") ? Number(s, "compute_s") : j.wall_s;
    return j;
  }
  return std::nullopt;
}

std::string FormatCampaign(const CampaignTotals& t) {
  std::string out = "campaign\n";
  out += fmt::format("  {:<22}{:>12}\n", "jobs", t.jobs);
  out += fmt::format("  {:<22}{:>12}\n", "successful", t.successful);
  out += fmt::format("  {:<22}{:>12}\n", "failed", t.failed);
  out += fmt::format("  {:<22}{:>12.3f}\n", "compute hours", t.compute_hours);
  out += fmt::format("  {:<22}{:>12.3f}\n", "transfer hours", t.transfer_hours);
  out += fmt::format("  {:<22}{:>12.3f}{}\n", "wasted hours", t.wasted_hours,
                     t.wall_hours > 0 ? fmt::format("  ({:.1f}% of all job time)",
                                                    100 * t.wasted_hours / t.wall_hours)
                                      : "");
  out += fmt::format("  {:<22}{:>12.1f}\n", "mean job s", t.mean_job_s);
  out += fmt::format("  {:<22}{:>12.1f}\n", "median job s", t.median_job_s);
  return out;
}

TB_JSON_FIELDS(CampaignTotals, jobs, successful, failed, compute_hours, transfer_hours,
               wasted_hours, wall_hours, mean_job_s, median_job_s)

nlohmann::ordered_json CampaignLine(const CampaignTotals& t) {
  return {{"trainbench_campaign", t}};
}

}  // namespace trainbench::stage
