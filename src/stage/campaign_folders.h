// Finds the jobs of a campaign on disk: each DIR is a result folder (it holds summary.json)
// or a folder of them (./results). Thread-safe: plain functions.
#pragma once

#include <string>
#include <vector>

#include "stage/campaign.h"

namespace trainbench::stage {

// Throws UsageError naming a DIR that does not exist or holds no result folder, and
// RuntimeError naming a summary.json that is not JSON.
std::vector<CampaignJob> LoadCampaignJobs(const std::vector<std::string>& dirs);

}  // namespace trainbench::stage
