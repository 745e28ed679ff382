// The reads a job's loader threads make, sampled by its time series from another thread
// (`train`'s image loader: bytes, reads and their latency per interval, as `run` has them
// from its read scheduler). Each reading thread records into a slot of its own, so recording
// stays single-writer (LiveHistogram's relaxed loads and stores, no lock); the sampler sums
// the slots.
// Thread safety: NewSlot and the readers from any thread; a Slot's Record from its one thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/live_histogram.h"

namespace trainbench::metrics {

class LiveIo {
 public:
  class Slot {
   public:
    void Record(uint64_t bytes, uint64_t latency_ns) {
      bytes_.store(bytes_.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
      reads_.store(reads_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      latency_.Record(latency_ns);
    }

   private:
    friend class LiveIo;
    std::atomic<uint64_t> bytes_{0}, reads_{0};
    LiveHistogram latency_;
  };

  // A slot for one reading thread; it lives as long as this LiveIo.
  Slot& NewSlot();

  uint64_t Bytes() const;
  uint64_t Reads() const;
  // Adds every slot's latency bucket counts to `counts` (IntervalProbe's latency_counts).
  void AddLatencyCounts(std::vector<uint64_t>& counts) const;
  // Every read's latency so far, in nanoseconds.
  Histogram Latency() const;

 private:
  mutable std::mutex mutex_;
  std::deque<Slot> slots_;  // a deque: a slot stays where it is as others are added
};

}  // namespace trainbench::metrics
