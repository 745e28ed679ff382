// Reads a results folder back for `trainbench report`: summary.json (required; its
// envelope's kind says which job wrote it: run, checkpoint, datagen, stage, train or
// staged_train),
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
  std::string kind;    // the envelope's (result_envelope.h)
  nlohmann::json summary;
  std::string config_yaml;  // "" when absent
  bool has_timeseries = false;
  std::string timeseries_rank;                        // "0" or "all"
  std::map<std::string, std::vector<double>> series;  // numeric columns of timeseries.csv
  std::vector<std::string> phases;                    // its phase column
};

RunResults ReadRunResults(const std::string& folder);

// Whether these results can share a page: one kind (a run and a checkpointing run, both
// of `trainbench run`, count as one). Throws UsageError naming each folder's kind.
void CheckOneKind(const std::vector<RunResults>& results);
// Whether the results are `run`'s (what --png and --check-replication draw and judge).
bool AreRunResults(const std::vector<RunResults>& results);

}  // namespace trainbench::report
