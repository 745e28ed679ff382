// Reads a `run` results folder back for `trainbench report`: summary.json (required),
// timeseries.csv (absent in results of older versions or with --interval 0: the time-series
// charts then say so) and config.yaml. The time series is kept column by column, the job's
// rows only (rank "all" when several ranks wrote rows, else rank 0's).
// Throws UsageError naming the folder or file and what to do. Thread-compatible.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainbench::report {

struct RunResults {
  std::string folder;  // as given
  std::string name;    // the folder's own name (<workload>-<UTC stamp>)
  nlohmann::json summary;
  std::string config_yaml;  // "" when absent
  bool has_timeseries = false;
  std::string timeseries_rank;                        // "0" or "all"
  std::map<std::string, std::vector<double>> series;  // numeric columns of timeseries.csv
  std::vector<std::string> phases;                    // its phase column
};

RunResults ReadRunResults(const std::string& folder);

}  // namespace trainbench::report
