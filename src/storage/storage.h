// Storage: where datasets and checkpoints live, behind one interface so everything
// above storage/ is the same for a file system and for S3 (principle 3). Modelled on
// leveldb's Env: methods throw IoError naming the object, reads go into caller-owned
// buffers, and writes publish atomically (a reader never sees a half-written object).
// Reads that a run issues by the thousand go through a ReadEngine (read_queue.h), which
// each backend hands out; RandomAccessFile is for the few whole-object reads (manifests,
// checkpoints, verification). Implementations, and the objects they hand out, are
// thread-safe unless they say otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metrics/histogram.h"
#include "storage/object_names.h"
#include "storage/read_queue.h"

namespace trainbench::storage {

// An object being written. Nothing is visible under its final name until Commit();
// destroying it uncommitted discards what was written.
class AtomicWriter {
 public:
  virtual ~AtomicWriter() = default;
  virtual void Append(const void* data, size_t size) = 0;
  // Flushes to stable storage before publishing (fsync on a file system).
  virtual void Sync() = 0;
  // Publishes the object under its final name.
  virtual void Commit() = 0;
  virtual uint64_t BytesWritten() const = 0;
};

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Reads up to `size` bytes at `offset`; returns the count (short only at end of object).
  // Positional, so several threads may read one object at once.
  virtual size_t ReadAt(uint64_t offset, void* buffer, size_t size) = 0;
  virtual uint64_t Size() = 0;
};

struct OpenOptions {
  bool direct = false;  // O_DIRECT on a file system: callers pass aligned buffers and offsets
  PageCacheHint page_cache = PageCacheHint::kNone;  // advice on open (file systems)
};

struct ListEntry {
  std::string path;  // relative to the storage root
  uint64_t size_bytes = 0;
};

// An exclusive hold on a name in a storage (Storage::TryLock), released when destroyed.
class StorageLock {
 public:
  virtual ~StorageLock() = default;
};

// What Storage::TryLock found.
struct LockAttempt {
  std::unique_ptr<StorageLock> lock;  // held by us; null when another holds it, or no locks
  std::string holder;  // who holds it when another does ("pid 12 on hosta"), for messages
};

class Storage {
 public:
  virtual ~Storage() = default;

  // Paths are relative to the storage root and use '/' separators.
  virtual std::unique_ptr<AtomicWriter> Create(const std::string& path) = 0;
  virtual std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                                 const OpenOptions& options = {}) = 0;
  virtual std::optional<uint64_t> FileSize(const std::string& path) = 0;
  virtual void Remove(const std::string& path) = 0;
  // Every object under `prefix` (a folder), recursively, sorted by path.
  virtual std::vector<ListEntry> List(const std::string& prefix) = 0;
  // Every object under `prefix`, handed to `each` one at a time in no set order, so that a
  // million entries are never held at once where the backend can stream them (a file
  // system); this base hands over List's entries.
  virtual void ListEach(const std::string& prefix,
                        const std::function<void(const ListEntry&)>& each);
  // Removes temporary objects that an interrupted Create left behind under `prefix`.
  virtual size_t RemoveLeftovers(const std::string& prefix) = 0;
  // The full name of `path` for messages ("/data/train/x.tfrecord", "s3://b/k").
  virtual std::string Describe(const std::string& path) const = 0;
  // Local file-system path when there is one (libraries that need a path use it).
  virtual std::optional<std::string> LocalPath(const std::string& path) const = 0;
  // The server Describe's names are on, as a client is pointed at it (S3: the endpoint URL,
  // without userinfo), for an op-log that another command replays; "" where Describe says
  // it all (a file system).
  virtual std::string EndpointUrl() const { return ""; }

  // A read engine over `objects` (read_engines.h lists the names). This base serves the
  // engines every backend has, `pread` (a thread pool over Open) and `null`; a backend
  // overrides it to add its own and calls it for the rest.
  virtual std::unique_ptr<ReadEngine> OpenReadEngine(SharedObjectNames objects,
                                                     const ReadEngineOptions& options);
  // The engine used when none is named.
  virtual std::string DefaultReadEngine() const { return "pread"; }
  // Every engine OpenReadEngine opens here (the default first), for the message of one that
  // is not.
  virtual std::vector<std::string> ReadEngines() const { return {"pread", "null"}; }
  // How many of `wanted` objects may stay open at once (file descriptors on a file
  // system); engines open the rest for each read.
  virtual uint64_t OpenObjectBudget(uint64_t wanted) { return wanted; }
  // What the backend counted so far (S3: requests, retries, bytes and seconds lost to
  // retries), for results; empty where it counts nothing.
  virtual std::map<std::string, double> Counters() const { return {}; }
  // Latency of each kind of request so far, in nanoseconds (S3: GET, GET_first_byte, PUT,
  // POST, HEAD, LIST, DELETE); empty where the backend keeps none.
  virtual std::map<std::string, metrics::Histogram> OperationLatencies() const { return {}; }
  // Takes the exclusive lock `path` (one writer per dataset folder) without waiting: a
  // file system's flock(2), an object store's lease object. The base has no locks: an
  // empty attempt.
  // The same for a name no other holder uses (a reader's mark, named by host and pid): an
  // object store need not look for a live holder first (no GET before the conditional PUT).
  virtual LockAttempt TryLockFreshName(const std::string& path) { return TryLock(path); }
  virtual LockAttempt TryLock(const std::string& path) {
    static_cast<void>(path);
    return {};
  }
};

// Opens the storage a URI names: a local path, file:///path, s3://bucket/prefix (with
// DLIO's storage.storage_options: endpoint, region, keys; see s3_options.h), or an
// http(s):// base URL (HttpStorage: objects on a web server, read only, never listed).
// Throws UsageError for another scheme.
std::unique_ptr<Storage> OpenStorage(const std::string& uri,
                                     const std::map<std::string, std::string>& options = {});

// Whether an S3 endpoint is set for `options` (storage_options' endpoint_url,
// AWS_ENDPOINT_URL, ~/.aws/config): without one an s3:// URI goes to AWS.
bool S3EndpointGiven(const std::map<std::string, std::string>& options);

// Reads a whole object into memory.
std::vector<unsigned char> ReadAll(Storage& storage, const std::string& path);

}  // namespace trainbench::storage
