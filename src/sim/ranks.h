// What the ranks of one job exchange around a run: at the start, where each rank's
// accelerators stand among all of them, the host each runs on, and the one seed of
// `shuffle: random` (rank 0's). (At the end every rank's record goes to rank 0 through the
// job's frame: app/run/run_report.cc.)
// Ranks may run different accelerator counts; shards stay disjoint because each rank's
// first accelerator is the sum of the counts of the ranks before it.
// Not thread-safe: called from the event loop's thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dist/communicator.h"

namespace trainbench::sim {

struct RankInfo {
  std::string host;
  uint64_t accelerators = 0;
  uint64_t memory_bytes = 0;  // the host's
  uint64_t cpu_count = 0;     // the host's
};

struct RankLayout {
  std::vector<RankInfo> ranks;     // in rank order
  uint64_t first_accelerator = 0;  // this rank's
  uint64_t total_accelerators = 0;
  uint64_t random_shuffle_seed = 0;
};

RankLayout ExchangeRankLayout(dist::Communicator& ranks, uint64_t accelerators);

// The hosts of a layout, each once, in the order of their first rank.
std::vector<std::string> Hosts(const RankLayout& layout);
// The ranks on `host`, in rank order: the first empties the host's page cache, and their
// count shares the host's cores among the ranks' reader loops.
std::vector<size_t> RanksOnHost(const RankLayout& layout, const std::string& host);

}  // namespace trainbench::sim
