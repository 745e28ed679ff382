// The workers of `trainbench replay`: `concurrency` threads take a plan's operations in the
// order they started and do them through storage/ (GETs through the storage's read engine,
// as `run` reads; PUTs of random bytes through AtomicWriter; HEAD, LIST, DELETE through
// Storage), as fast as they can (sequential, parallel) or each at its original offset over
// `speed` (timed). A DELETE removes only an object this replay PUT: nothing it did not write.
// Thread safety: one ReplayWorkers per replay; `done_ops`/`done_bytes` are read by others.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/replay_plan.h"
#include "metrics/op_log.h"
#include "storage/read_engines.h"
#include "storage/storage.h"

namespace trainbench::app {

struct ReplayedOps {
  uint64_t count = 0, bytes = 0, errors = 0, skipped = 0;
  metrics::Histogram latency_ns;
  std::string first_error;

  // Sums another worker's or rank's figures into these.
  void Add(const ReplayedOps& other) {
    count += other.count;
    bytes += other.bytes;
    errors += other.errors;
    skipped += other.skipped;
    latency_ns.Merge(other.latency_ns);
    if (first_error.empty()) first_error = other.first_error;
  }
};

struct ReplayFigures {
  std::map<ReplayOp, ReplayedOps> ops;
  int64_t start_ns = 0, end_ns = 0;  // wall clock: the first op's start, the last one's end
  uint64_t late = 0;                 // timed: ops that began over 1 ms after their time
  uint64_t max_late_ns = 0;
  bool interrupted = false;
};

struct ReplaySettings {
  bool timed = false;
  // Timed: this rank's first op after the job's first (over every rank's log), so the ranks'
  // operations keep their places relative to each other.
  int64_t rank_offset_ns = 0;
  double speed = 1;
  unsigned concurrency = 1;
  std::shared_ptr<metrics::OpLog> op_log;  // this replay's own log; may be null
};

struct ReplayProgress {
  std::atomic<uint64_t> ops{0}, bytes{0};
};

// `storages` matches plan.storages. `start_ns`: when a timed replay's offset 0 falls (wall
// clock; the ranks of a job agree on it).
ReplayFigures RunReplay(const ReplayPlan& plan,
                        std::vector<std::unique_ptr<storage::Storage>>& storages,
                        const ReplaySettings& settings, int64_t start_ns, ReplayProgress& progress);

}  // namespace trainbench::app
