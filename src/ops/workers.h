// The operation engine's workers, which run a plan or a weighted mix: `trainbench replay`'s
// and a sai3-bench workload's (`run CONFIG.yaml`: this is sai3-bench's executor).
// `concurrency` threads take operations from a source and do them through storage/ (GETs
// through the storage's read engine, as `run` reads; PUTs of random bytes through
// AtomicWriter; HEAD, LIST, DELETE through Storage). The sources: a replay plan's operations
// in the order they started, as fast as the workers go or each at its original offset over
// `speed` (timed); or a weighted random mix for a duration (ops/op_mix.h). A DELETE removes
// only an object this job PUT: nothing it did not write.
// Thread safety: one run at a time per source; `progress` is read by others.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "metrics/op_log.h"
#include "ops/op_figures.h"
#include "ops/replay_plan.h"
#include "storage/page_cache_hint.h"
#include "storage/read_engines.h"
#include "storage/storage.h"

namespace trainbench::ops {

// A rank's figures, as its workers summed them; as JSON for rank 0 to sum the ranks'.
struct ReplayFigures {
  std::map<ReplayOp, OpFigures> ops;
  int64_t start_ns = 0, end_ns = 0;  // wall clock: the first op's start, the last one's end
  uint64_t late = 0;                 // timed: ops that began over 1 ms after their time
  uint64_t max_late_ns = 0;
  bool interrupted = false;
};
TB_JSON_FIELDS(ReplayFigures, ops, start_ns, end_ns, late, max_late_ns, interrupted)

// `ops` by the operations' names.
OpFiguresByName ByName(const std::map<ReplayOp, OpFigures>& ops);

struct ReplaySettings {
  bool timed = false;
  // Timed: this rank's first op after the job's first (over every rank's log), so the ranks'
  // operations keep their places relative to each other.
  int64_t rank_offset_ns = 0;
  double speed = 1;
  unsigned concurrency = 1;
  std::shared_ptr<metrics::OpLog> op_log;  // this replay's own log; may be null
  // Set: each operation's time in seconds at the source's index of it (a replay plan's op),
  // for `replay --train-results`'s simulated loader; sized by the caller, NaN where not done.
  std::vector<float>* op_seconds = nullptr;
  // The advice each GET's file gets as it is opened (file systems; sai3-bench's
  // page_cache_mode).
  storage::PageCacheHint page_cache = storage::PageCacheHint::kNone;
};

struct ReplayProgress {
  std::atomic<uint64_t> ops{0}, bytes{0};
};

inline constexpr uint32_t kNoObject = UINT32_MAX;

// One operation as a worker does it.
struct WorkerOp {
  ReplayOp op = ReplayOp::kGet;
  uint32_t storage = 0;
  uint32_t object = kNoObject;  // into the table's objects; kNoObject: `name` instead
  // PUT: the new object's name; LIST: the prefix listed; DELETE: "" takes any object this
  // job PUT whose name `delete_matches` accepts (skipped when there is none).
  std::string name;
  std::function<bool(const std::string&)> delete_matches;
  uint64_t bytes = 0;   // GET: bytes from the object's start (0: its size asked); PUT: written
  size_t index = 0;     // the source's own handle on it
  bool absent = false;  // HEAD: the original found nothing, so a miss is no error
};

// Where the workers' operations come from. Next and Ended are called from every worker.
class OpSource {
 public:
  virtual ~OpSource() = default;
  // The next operation, once it may start; false when none is left, or on Ctrl-C (then it
  // sets mine.interrupted); it may count late starts in `mine`.
  virtual bool Next(WorkerOp& op, ReplayFigures& mine) = 0;
  // The operation ended (a later one may wait for it).
  virtual void Ended(const WorkerOp& op) { static_cast<void>(op); }
  // The largest GET it hands out (sizes the workers' buffers).
  virtual uint64_t MaxGetBytes() const = 0;
};

// Does `source`'s operations on `storages` (matching `table`: its objects, and the objects
// GETs read, over which each storage's read engine opens) with settings.concurrency workers.
ReplayFigures RunOps(const std::vector<PlannedStorage>& table,
                     std::vector<std::unique_ptr<storage::Storage>>& storages, OpSource& source,
                     const ReplaySettings& settings, ReplayProgress& progress);

// `storages` matches plan.storages. `start_ns`: when a timed replay's offset 0 falls (wall
// clock; the ranks of a job agree on it).
ReplayFigures RunReplay(const ReplayPlan& plan,
                        std::vector<std::unique_ptr<storage::Storage>>& storages,
                        const ReplaySettings& settings, int64_t start_ns, ReplayProgress& progress);

}  // namespace trainbench::ops
