// Asynchronous reads, in the manner of fio's ioengines: a storage backend hands out a
// ReadEngine over a fixed list of objects (the dataset's files), and each thread that
// reads takes its own ReadQueue from it: submit (object, offset, length, buffer, tag),
// reap completions with a timeout, and never know whether a file descriptor, an
// io_uring or an HTTP connection is behind them (ARCHITECTURE.md, principle 3).
// An engine that does its reads inside Submit (pread with depth 1, null) is a "sync"
// engine in fio's sense: Reap then hands back what Submit finished, without waiting.
// Thread safety: ReadEngine is thread-safe; a ReadQueue is used by one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "storage/page_cache_hint.h"

namespace trainbench::storage {

// O_DIRECT's alignment of offsets, lengths and buffers.
inline constexpr uint64_t kDirectAlignment = 4096;

struct ReadRequest {
  uint32_t object = 0;  // index into the objects the engine was opened over
  uint64_t offset = 0;
  uint64_t length = 0;
  // `length` bytes, aligned to Capabilities().alignment; ignored (may be null) where the
  // engine reads into buffers of its own (Capabilities().own_buffers).
  unsigned char* buffer = nullptr;
  uint64_t tag = 0;     // handed back in the completion
  uint64_t sample = 0;  // the sample's index in its object, for engines that read samples
};

struct ReadCompletion {
  uint64_t tag = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;       // read; fewer than asked only at the end of the object
  uint64_t latency_ns = 0;  // from submit to completion
  std::string error;        // empty, or the whole message (object, offset, cause)
};

struct ReadEngineCapabilities {
  // Offsets, lengths and buffers must be multiples of this (4096 under O_DIRECT).
  uint64_t alignment = 1;
  // The objects are files with local paths (libraries that open paths can use them).
  bool local_paths = false;
  // Reads worth keeping in flight on one queue: 1 where each queue reads synchronously.
  unsigned useful_depth = 1;
  // The engine reads whole samples through a format's library into its own buffers:
  // the reader submits one request per sample (ReadRequest::sample) with no buffer.
  bool whole_samples = false;
  // Reads smaller than this cost more per byte than they need to (an S3 GET's fixed cost):
  // samples are read in pieces no smaller than this (or whole when smaller). 0: no floor.
  uint64_t min_read_size = 0;
};

class ReadQueue {
 public:
  virtual ~ReadQueue() = default;
  // Queues one read; at most Depth() may be submitted and not yet reaped.
  virtual void Submit(const ReadRequest& request) = 0;
  // Moves finished reads to `out` (at most out.size()), waiting up to `timeout_s` until
  // at least `min` are there; returns how many were moved.
  virtual size_t Reap(std::span<ReadCompletion> out, size_t min, double timeout_s) = 0;
  virtual unsigned Depth() const = 0;
};

class ReadEngine {
 public:
  virtual ~ReadEngine() = default;
  // A queue for one thread, keeping up to `depth` reads in flight.
  virtual std::unique_ptr<ReadQueue> NewQueue(unsigned depth) = 0;
  virtual const ReadEngineCapabilities& Capabilities() const = 0;
  // How the reads are done, for results: "pread", "io_uring", "null", ...
  virtual std::string Describe() const = 0;
  // Objects opened so far (an object over the open-file budget counts each time).
  virtual uint64_t Opens() const = 0;
  // The full name of object `object` for messages ("/data/train/x.npz").
  virtual std::string DescribeObject(uint32_t object) const = 0;
};

// An engine that wraps another (the op-log, the page-residency check): everything but its
// queues is the wrapped engine's.
class ForwardingEngine : public ReadEngine {
 public:
  explicit ForwardingEngine(std::unique_ptr<ReadEngine> engine) : engine_(std::move(engine)) {}
  const ReadEngineCapabilities& Capabilities() const override { return engine_->Capabilities(); }
  std::string Describe() const override { return engine_->Describe(); }
  uint64_t Opens() const override { return engine_->Opens(); }
  std::string DescribeObject(uint32_t object) const override {
    return engine_->DescribeObject(object);
  }

 protected:
  ReadEngine& Wrapped() { return *engine_; }

 private:
  std::unique_ptr<ReadEngine> engine_;
};

struct ReadEngineOptions {
  std::string engine;   // empty: the storage's own (pread on a file system)
  bool direct = false;  // O_DIRECT on a file system
  PageCacheHint page_cache = PageCacheHint::kNone;  // advice as each file is opened
};

}  // namespace trainbench::storage
