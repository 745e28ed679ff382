// The event loop of one phase (a training epoch, an evaluation pass, a preload): every
// emulated accelerator is a small state machine driven by timers, not a thread. A step:
// wait for the batch (the read scheduler signals it), compute for a drawn time (a
// timer), then, when steps are synchronised, wait at the barrier until every
// accelerator has finished the step (a data-parallel all-reduce), as DLIO does. With
// several ranks the barrier spans them all: when this rank's accelerators are all there,
// a non-blocking all-reduce starts and the loop polls it where it waits, so timers and
// reads go on meanwhile. Steps that take no time (no compute, nothing holding them) end as
// their batches are ready: the reads move the prefetch window then, and the loop counts
// those steps every few milliseconds instead of being woken for each (the same figures,
// without two thread hand-offs a step).
// Not thread-safe: one loop per thread (a mix's jobs each run their own); the reads run on the
// scheduler's threads.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "config/workload.h"
#include "dist/communicator.h"
#include "loader/read_scheduler.h"
#include "metrics/live_counters.h"
#include "metrics/run_record.h"

namespace trainbench::sim {

struct Progress {
  const char* kind = "train";
  uint64_t epoch = 0, epochs = 0, step = 0, steps = 0;
  // Since the phase began; 0 and `measured` false until a step has ended and
  // kMinRateInterval has passed (over a near-zero interval they mean nothing).
  double samples_per_second = 0, bytes_per_second = 0, au_percentage = 0;
  bool measured = false;
};

// The least time a phase's rates and AU are taken over (seconds).
inline constexpr double kMinRateInterval = 0.2;

struct PhaseSpec {
  const char* kind = "train";
  uint64_t epoch = 1;
  uint64_t epochs = 1;                                                 // for progress only
  const std::vector<std::vector<loader::SampleRef>>* plans = nullptr;  // per local accelerator
  uint32_t file_offset = 0;
  uint64_t batch_size = 1;
  bool sequential = false;  // plans are loader::SequentialWithinFiles
  uint64_t steps = 0;
  bool io = true;  // false: batches are in memory already (read_type memory)
  bool barrier = true;
  config::TimeDistribution compute;
  uint64_t seed = 0;               // for the compute-time draws
  uint64_t first_accelerator = 0;  // global index of local accelerator 0 (seeds per accelerator)
  uint64_t exclude_start_steps = 0;
  // Called when every accelerator finished step `step` (0-based); returns true when the
  // step must end in a barrier (a checkpoint is taken there) and is then called again
  // with `at_barrier` set, so it can do the work while all accelerators wait.
  std::function<bool(uint64_t step, bool at_barrier)> sync_step;
  std::function<void(const Progress&)> progress;  // at the start, every 0.25 s, at the end
  // Called when accelerator `a` (local index) takes its batch `step` off the reader
  // (io phases only): what was read for it can be counted then, so an interrupted phase
  // counts only what it used.
  std::function<void(size_t a, uint64_t step)> on_batch;
  // Several ranks (null or one rank: this process alone): step barriers span them, and a
  // failure another rank reports stops the phase.
  dist::Communicator* ranks = nullptr;
  // Where the time series reads the phase, finished samples and the wait for data (null:
  // not published).
  metrics::LiveCounters* live = nullptr;
};

struct PhaseOutcome {
  metrics::PhaseRecord record;
  metrics::Histogram compute_late_ns;  // how late each compute timer was handled
  bool interrupted = false;
  bool failed = false;       // a read failed: scheduler->Error() says which
  std::string peer_failure;  // another rank stopped: which, where and why
};

// Runs one phase; `scheduler` may be null when spec.io is false. Records each step's
// wait for its batch in `data_wait_ns`.
PhaseOutcome RunPhase(const PhaseSpec& spec, loader::ReadScheduler* scheduler,
                      metrics::Histogram& data_wait_ns);

}  // namespace trainbench::sim
