// What a mix measured, from its jobs' records: each job's figures (as its own run reports
// them) and its AU over time on the mix's one time axis; the checkpoint bursts; each training's
// AU inside and outside the other jobs' bursts; the storage's aggregate (MB/s, operations,
// read latency) and each job's share of it over time; and, with --baseline, each job alone
// beside it and what sharing cost. The page (report) and docs/mixes.md read these keys. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/mix.h"
#include "metrics/run_record.h"

namespace trainbench::app {

// One job's end, rank 0's.
struct MixJobResult {
  config::MixJob spec;
  std::string workload;  // its config's workload_name
  bool trains = true;    // workflow.train (false: a checkpointing workload)
  int exit_code = 0;
  std::string error;          // why it stopped or was refused ("" when it ended as it should)
  std::string folder;         // its results folder
  nlohmann::json summary;     // its summary.json
  nlohmann::json metrics;     // its final line's figures (report::MetricsLine's)
  metrics::RunRecord record;  // merged over ranks, the time series over every rank
};

struct MixRecord {
  std::vector<MixJobResult> jobs;
  double started_at_s = 0;  // NowSeconds() when the jobs were started
  double wall_s = 0;        // until the last job ended
  // This process's CPU time over the jobs (rank 0's): every job's together, as no job's own
  // can be told apart from the others' in one process.
  double cpu_seconds = 0;
};

// The mix's figures for summary.json; `alone` (null without --baseline) holds the same jobs,
// each run by itself.
nlohmann::ordered_json MixFigures(const MixRecord& mix, const MixRecord* alone, double interval_s);

// The console's table: a line per job, then the storage's aggregate.
std::string MixTable(const nlohmann::ordered_json& figures);

}  // namespace trainbench::app
