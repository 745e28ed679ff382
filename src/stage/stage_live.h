// A stage's cumulative figures as they grow, for the time series' sampler on its own thread
// (metrics/interval_sampler.h): bytes fetched, requests finished, retries and streams busy,
// stored by the stage's loop (about every 0.1 s) and read without locks. Relaxed atomics:
// each figure is read whole, and a row a few milliseconds out of step with another is fine.
#pragma once

#include <atomic>
#include <cstdint>

namespace trainbench::stage {

struct StageLive {
  std::atomic<uint64_t> bytes{0};  // fetched this run, all attempts' kept bytes
  std::atomic<uint64_t> retries{0};
  std::atomic<unsigned> active{0};    // streams with a request in flight
  std::atomic<bool> fetching{false};  // false before the first fetch and after the last
};

}  // namespace trainbench::stage
