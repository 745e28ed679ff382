// What the step loop publishes while a run goes, for the time series to sample: the phase
// it is in, samples of finished steps, and the accelerators' wait for data. The wait is
// kept so that it can be read at any instant, ongoing waits included: finished waits, how
// many accelerators wait now and the sum of the times they began, so the total at time t
// is done + waiting x t - since (a long wait shows in every interval it spans, not in one
// lump when it ends).
// Thread safety: one writer (the event loop); any number of readers. The three wait
// fields change together under a sequence lock, so a reader never sees half an update;
// the writer pays two extra stores per change (per step, not per read).
#pragma once

#include <atomic>
#include <cstdint>

#include "common/clock.h"

namespace trainbench::metrics {

// kStage: `trainbench stage` fetching a dataset (its time series).
enum class LivePhase : int {
  kSetup,
  kPreload,
  kTrain,
  kEval,
  kCheckpoint,
  kDone,
  kStage,
  kDatagen,
  kReplay,
  kPrepare,  // a sai3-bench config's prepare (`run CONFIG.yaml`)
  kWorkload  // its op mix
};
const char* LivePhaseName(LivePhase phase);

class LiveCounters {
 public:
  // Writer side (the event loop).
  void SetPhase(LivePhase phase, uint64_t epoch) {
    phase_.store(static_cast<int>(phase), std::memory_order_relaxed);
    epoch_.store(epoch, std::memory_order_relaxed);
  }
  void AddSamples(uint64_t n) {
    samples_.store(samples_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  // Times are NowSeconds(); they are kept relative to when the counters were made, so the
  // sums stay small and exact over millions of steps.
  void StartWait(double since) { Change(0, 1, since - origin_); }
  // A wait that began at `since` ended after `waited` seconds.
  void EndWait(double since, double waited) { Change(waited, -1, origin_ - since); }

  // Reader side.
  LivePhase Phase() const { return static_cast<LivePhase>(phase_.load(std::memory_order_relaxed)); }
  uint64_t Epoch() const { return epoch_.load(std::memory_order_relaxed); }
  uint64_t Samples() const { return samples_.load(std::memory_order_relaxed); }
  struct Wait {
    double total_s = 0;    // accelerator-seconds waited up to `now`, ongoing waits included
    uint64_t waiting = 0;  // accelerators waiting at `now`
  };
  Wait WaitAt(double now) const;

 private:
  void Change(double done, int waiting, double since) {
    const uint64_t seq = seq_.load(std::memory_order_relaxed);
    seq_.store(seq + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    done_s_.store(done_s_.load(std::memory_order_relaxed) + done, std::memory_order_relaxed);
    waiting_.store(waiting_.load(std::memory_order_relaxed) + static_cast<uint64_t>(waiting),
                   std::memory_order_relaxed);
    since_s_.store(since_s_.load(std::memory_order_relaxed) + since, std::memory_order_relaxed);
    seq_.store(seq + 2, std::memory_order_release);
  }

  const double origin_ = NowSeconds();
  std::atomic<int> phase_{static_cast<int>(LivePhase::kSetup)};
  std::atomic<uint64_t> epoch_{0};
  std::atomic<uint64_t> samples_{0};
  std::atomic<uint64_t> seq_{0};  // odd while the wait fields change
  std::atomic<double> done_s_{0};
  std::atomic<uint64_t> waiting_{0};
  std::atomic<double> since_s_{0};
};

}  // namespace trainbench::metrics
