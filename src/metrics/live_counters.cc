#include "metrics/live_counters.h"

namespace trainbench::metrics {

const char* LivePhaseName(LivePhase phase) {
  switch (phase) {
    case LivePhase::kSetup:
      return "setup";
    case LivePhase::kPreload:
      return "preload";
    case LivePhase::kTrain:
      return "train";
    case LivePhase::kEval:
      return "eval";
    case LivePhase::kCheckpoint:
      return "checkpoint";
    case LivePhase::kStage:
      return "stage";
    case LivePhase::kDatagen:
      return "datagen";
    case LivePhase::kReplay:
      return "replay";
    case LivePhase::kPrepare:
      return "prepare";
    case LivePhase::kWorkload:
      return "workload";
    case LivePhase::kDone:
      return "done";
  }
  return "?";
}

LiveCounters::Wait LiveCounters::WaitAt(double now) const {
  for (;;) {
    const uint64_t before = seq_.load(std::memory_order_acquire);
    if (before & 1) continue;  // the writer is mid-change: a few stores away from done
    const double done = done_s_.load(std::memory_order_relaxed);
    const uint64_t waiting = waiting_.load(std::memory_order_relaxed);
    const double since = since_s_.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (seq_.load(std::memory_order_relaxed) != before) continue;
    return {done + static_cast<double>(waiting) * (now - origin_) - since, waiting};
  }
}

}  // namespace trainbench::metrics
