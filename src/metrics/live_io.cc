#include "metrics/live_io.h"

namespace trainbench::metrics {

LiveIo::Slot& LiveIo::NewSlot() {
  std::lock_guard lock(mutex_);
  return slots_.emplace_back();
}

uint64_t LiveIo::Bytes() const {
  std::lock_guard lock(mutex_);
  uint64_t total = 0;
  for (const auto& s : slots_) total += s.bytes_.load(std::memory_order_relaxed);
  return total;
}

uint64_t LiveIo::Reads() const {
  std::lock_guard lock(mutex_);
  uint64_t total = 0;
  for (const auto& s : slots_) total += s.reads_.load(std::memory_order_relaxed);
  return total;
}

void LiveIo::AddLatencyCounts(std::vector<uint64_t>& counts) const {
  std::lock_guard lock(mutex_);
  for (const auto& s : slots_) s.latency_.AddCounts(counts);
}

Histogram LiveIo::Latency() const {
  std::lock_guard lock(mutex_);
  Histogram all;
  for (const auto& s : slots_) all.Merge(s.latency_.ToHistogram());
  return all;
}

}  // namespace trainbench::metrics
