// A stage's cumulative figures as they grow, for the time series' sampler on its own thread
// (metrics/interval_sampler.h): bytes fetched, requests finished, retries and streams busy,
// stored by the stage's loop (about every 0.1 s) and read without locks. Relaxed atomics:
// each figure is read whole, and a row a few milliseconds out of step with another is fine.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace trainbench::stage {

struct StageLive {
  std::atomic<uint64_t> bytes{0};  // fetched this run, all attempts' kept bytes
  std::atomic<uint64_t> retries{0};
  std::atomic<unsigned> active{0};  // streams with a request in flight
  // The most streams busy since the sampler last took it (TakePeak): a transfer shorter than
  // an interval shows, where `active` at the interval's end reads 0.
  mutable std::atomic<unsigned> peak_active{0};
  void NoteActive(unsigned n) {
    active.store(n, std::memory_order_relaxed);
    unsigned seen = peak_active.load(std::memory_order_relaxed);
    while (n > seen && !peak_active.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
    }
  }
  // The most busy since the last call, and from now on the count busy now.
  unsigned TakePeak() const {
    const unsigned now = active.load(std::memory_order_relaxed);
    return std::max(now, peak_active.exchange(now, std::memory_order_relaxed));
  }
  std::atomic<bool> fetching{false};  // false before the first fetch and after the last
};

}  // namespace trainbench::stage
