// Storage in memory, like leveldb's memenv: for tests of everything above storage/
// that should not touch a disk. Thread-safe; objects are published on Commit like the
// real backends, so tests see the same atomicity.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "storage/storage.h"

namespace trainbench::storage {

class MemoryStorage : public Storage {
 public:
  std::unique_ptr<AtomicWriter> Create(const std::string& path) override;
  std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                         const OpenOptions& options) override;
  std::optional<uint64_t> FileSize(const std::string& path) override;
  void Remove(const std::string& path) override;
  std::vector<ListEntry> List(const std::string& prefix) override;
  size_t RemoveLeftovers(const std::string& prefix) override;
  std::string Describe(const std::string& path) const override;
  std::optional<std::string> LocalPath(const std::string& path) const override;
  // Adds `memory`: reads complete when reaped, newest first, so the reader above meets
  // completions out of order without threads or timing (the tests' engine).
  std::unique_ptr<ReadEngine> OpenReadEngine(SharedObjectNames objects,
                                             const ReadEngineOptions& options) override;
  std::string DefaultReadEngine() const override { return "memory"; }
  std::vector<std::string> ReadEngines() const override { return {"memory", "pread", "null"}; }

  using Bytes = std::vector<unsigned char>;
  void Publish(const std::string& path, std::shared_ptr<const Bytes> data);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Bytes>> objects_;
};

}  // namespace trainbench::storage
