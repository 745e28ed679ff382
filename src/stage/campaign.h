// `trainbench stage --report DIR...`: many jobs' result folders (stage, and train or run
// when they carry the fields) summed into one campaign table: jobs, successful, failed,
// compute, transfer and wasted hours, mean and median job time. The aggregation is pure
// (Summarize, JobFromSummary); reading folders is campaign_folders.h's.
// Thread-safe: plain functions.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::stage {

struct CampaignJob {
  std::string folder;
  std::string kind;  // stage, run, train
  bool complete = false;
  double wall_s = 0;
  double compute_s = 0;   // 0 when the job has none (a stage)
  double transfer_s = 0;  // a stage's transfer_s
  double wasted_s = 0;    // a stage's retry_wasted_s
};

struct CampaignTotals {
  size_t jobs = 0, successful = 0, failed = 0;
  double compute_hours = 0, transfer_hours = 0, wasted_hours = 0, wall_hours = 0;
  double mean_job_s = 0, median_job_s = 0;
};

CampaignTotals Summarize(const std::vector<CampaignJob>& jobs);

// A job from one summary.json: a stage's (command "stage"), a run's (run_seconds) or a
// train's (train_seconds / wall_s); nullopt for anything else.
std::optional<CampaignJob> JobFromSummary(const nlohmann::json& summary, const std::string& folder);

std::string FormatCampaign(const CampaignTotals& totals);
// {"trainbench_campaign": {...}}
nlohmann::ordered_json CampaignLine(const CampaignTotals& totals);

}  // namespace trainbench::stage
