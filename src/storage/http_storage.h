// A read-only Storage over an http(s):// base URL, for a dataset that is one object on a web
// server (a tar of class folders, read in place by `train`): object `path` is the URL
// base/path, its size from a HEAD, its bytes from ranged GETs (RangeStreams) on kept-alive
// connections, each GET tried again after a jittered backoff when the connection was cut or
// the server answered 5xx or 429, up to kHttpAttempts tries. A web server has no listing: List
// says so. Thread-safe: a read takes a connection from a pool and gives it back.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::storage {

inline constexpr unsigned kHttpAttempts = 5;

class HttpStorage : public Storage {
 public:
  explicit HttpStorage(std::string base_url);
  ~HttpStorage() override;

  std::unique_ptr<AtomicWriter> Create(const std::string& path) override;
  std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                         const OpenOptions& options) override;
  std::optional<uint64_t> FileSize(const std::string& path) override;
  void Remove(const std::string& path) override;
  std::vector<ListEntry> List(const std::string& prefix) override;
  size_t RemoveLeftovers(const std::string& prefix) override;
  std::string Describe(const std::string& path) const override;
  std::optional<std::string> LocalPath(const std::string& path) const override;
  // Nothing is written here, so a writer's lock (datagen's, stage's DEST, a results folder)
  // is refused as Create is, with a UsageError; a reader's mark is not needed (no clean can
  // run here either): an empty attempt.
  LockAttempt TryLock(const std::string& path) override;
  LockAttempt TryLockFreshName(const std::string&) override { return {}; }

  // One ranged GET of [offset, offset + size) of `path` into `buffer`, tried again as above;
  // returns the bytes read (short only at the object's end). Throws IoError naming the URL.
  size_t Get(const std::string& path, uint64_t offset, void* buffer, size_t size);

 private:
  struct Connection;
  std::unique_ptr<Connection> Take();
  void Give(std::unique_ptr<Connection> connection);

  std::string base_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;  // guarded by mutex_
};

}  // namespace trainbench::storage
