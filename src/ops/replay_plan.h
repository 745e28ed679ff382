// What `trainbench replay` will do with an op-log: its operations in the order they started
// (the --ops kept), each bound to a storage (the log's endpoint, or --target in its place)
// and an object there, with when it started relative to the first (for a timed replay) and
// the original's figures to compare against. Thread-compatible: built once, then read.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "metrics/op_log_reader.h"
#include "ops/op_figures.h"

namespace trainbench::ops {

enum class ReplayOp { kGet, kPut, kHead, kList, kDelete };

// "GET", ...; the op-log's names.
const char* ReplayOpName(ReplayOp op);
// Throws UsageError naming --ops for a name that is none of them.
ReplayOp ReplayOpOf(const std::string& name);

struct PlannedOp {
  ReplayOp op = ReplayOp::kGet;
  uint32_t storage = 0;  // index into ReplayPlan::storages
  uint32_t object = 0;   // index into that storage's objects
  // The original's thread: its (client, thread) pair, numbered in the order first met.
  uint32_t thread = 0;
  uint64_t bytes = 0;
  int64_t offset_ns = 0;    // its start after the log's first start
  int64_t duration_ns = 0;  // the original's
  // The last earlier PUT or DELETE of the same object (an index into ReplayPlan::ops), which
  // must have ended before this one starts, however many workers run: a GET of what the log
  // had just written finds it. -1: none.
  int64_t after = -1;
  // HEAD: the logged one found no object (n_objects 0, as trainbench logs a miss), so a
  // replayed miss is the same answer, not an error.
  bool absent = false;
};

struct PlannedStorage {
  std::string uri;                   // what is opened: an endpoint of the log, or --target
  std::vector<std::string> objects;  // names relative to it
  std::set<uint32_t> gets;           // the objects read (the read engine is opened over them)
  // The server the log says an s3:// endpoint is on (its endpoint_url column); "" when the
  // log does not say (an older trainbench's, sai3-bench's) or for --target.
  std::string endpoint_url;
};

struct ReplayPlan {
  std::vector<PlannedOp> ops;
  std::vector<PlannedStorage> storages;
  std::map<ReplayOp, OpFigures> original;       // the op-log's, of the ops kept
  int64_t first_start_ns = 0, last_end_ns = 0;  // of the ops kept, wall clock
  uint64_t threads = 0;                         // distinct (client, thread) pairs
  uint64_t most_in_flight = 0;       // the most ops at once in the original: its concurrency
  uint64_t dropped_by_ops = 0;       // not in --ops
  uint64_t bookkeeping_skipped = 0;  // writes of a dataset's manifest, journal or lock
  bool writes = false;               // PUT or DELETE among the ops
};

// `ops` empty: every kind. `target` empty: each op's own endpoint. Throws UsageError when
// nothing is left to replay.
ReplayPlan PlanReplay(const std::vector<metrics::OpLogEntry>& entries,
                      const std::set<ReplayOp>& ops, const std::string& target,
                      const std::string& where);

}  // namespace trainbench::ops
