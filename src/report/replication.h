// `trainbench report --check-replication`: MLPerf Storage's replication rule over a set of
// runs of one configuration: a benchmark result is the mean of 5 runs, every run must pass
// (complete, AU at or above the target) and their throughputs (samples/s, the mean over
// epochs) must lie within 5% of each other, i.e. max / min - 1 <= 5%. Runs whose
// configurations differ (workload, accelerators, hosts, dataset, batch, epochs, target)
// are not replicas and fail. Runs far apart in time (a gap longer than a run: MLPerf asks
// for consecutive runs) are a warning. Pure; thread-compatible.
#pragma once

#include <string>
#include <vector>

#include "report/results_reader.h"

namespace trainbench::report {

inline constexpr size_t kReplicationRuns = 5;
inline constexpr double kReplicationSpread = 0.05;

struct ReplicationResult {
  bool passed = false;
  double mean_samples_per_second = 0;  // the benchmark result
  double min_samples_per_second = 0, max_samples_per_second = 0;
  double spread = 0;                  // max / min - 1
  std::vector<std::string> failures;  // why it failed, one per reason
  std::vector<std::string> warnings;
  std::string text;  // the table and verdict, as printed
};

ReplicationResult CheckReplication(const std::vector<RunResults>& runs);

}  // namespace trainbench::report
