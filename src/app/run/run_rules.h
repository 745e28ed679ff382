// The rules' checks of a run (report/rules_checks.h) from what `run` knows: the ranks'
// hosts, the storage of the data (or the checkpoints) and the results folder. Rank 0 calls
// it: the file systems compared are those its host sees. Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/workload.h"
#include "report/rules_checks.h"
#include "sim/ranks.h"
#include "storage/storage.h"

namespace trainbench::app {

report::RulesReport CheckRunRules(const sim::RankLayout& layout, const storage::Storage& data,
                                  const std::string& data_what,
                                  std::optional<uint64_t> dataset_bytes,
                                  const std::string& results_folder);

// A checkpointing run's mode (DLIO's checkpoint.mode: the whole job, or these ranks' share
// of a larger one) and whether it is MLPerf's subset (llama3_8b on 8 processes), added to
// `report`: checkpoint_mode, checkpoint_job_ranks and rules.checkpoint_subset.
void AddCheckpointRules(const config::WorkloadConfig& config, uint64_t ranks,
                        report::RulesReport& report);

}  // namespace trainbench::app
