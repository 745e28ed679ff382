// One job's record from its ranks' records, as rank 0 reports it: samples, bytes and
// counters summed, latency histograms merged bucket by bucket, AU as the mean over all
// accelerators (total compute over total counted time) and its minimum, a phase as long as
// its slowest rank. Pure; thread-compatible.
#pragma once

#include <vector>

#include "metrics/run_record.h"

namespace trainbench::metrics {

// `ranks` in rank order, not empty. The facts of the run (workload, dataset, steps) are
// rank 0's; a phase is complete only when every rank completed it.
RunRecord MergeRanks(const std::vector<RunRecord>& ranks);

// Sums of phases of one kind and epoch across ranks.
PhaseRecord MergePhases(const std::vector<const PhaseRecord*>& phases);

}  // namespace trainbench::metrics
