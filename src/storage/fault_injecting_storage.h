// A forwarding Storage that fails on cue, for tests of error paths (leveldb's
// fault-injection Env): writes fail with a chosen errno once a byte budget is spent
// (a full disk), and opens of chosen paths fail (a broken file). Thread-safe.
#pragma once

#include <atomic>
#include <set>
#include <string>

#include "storage/forwarding_storage.h"

namespace trainbench::storage {

class FaultInjectingStorage : public ForwardingStorage {
 public:
  explicit FaultInjectingStorage(Storage& base) : ForwardingStorage(base) {}

  // Writes beyond `bytes` in total fail with `error_number` (ENOSPC: a full disk).
  void FailWritesAfter(uint64_t bytes, int error_number) {
    write_budget_ = static_cast<int64_t>(bytes);
    write_errno_ = error_number;
  }
  void FailOpen(const std::string& path, int error_number) {
    fail_open_.insert(path);
    open_errno_ = error_number;
  }

  std::unique_ptr<AtomicWriter> Create(const std::string& path) override;
  std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                         const OpenOptions& options) override;
  // Reads through this storage's Open (pread), so failed opens reach the reader.
  std::unique_ptr<ReadEngine> OpenReadEngine(SharedObjectNames objects,
                                             const ReadEngineOptions& options) override {
    return Storage::OpenReadEngine(std::move(objects), options);
  }
  std::string DefaultReadEngine() const override { return "pread"; }
  std::vector<std::string> ReadEngines() const override { return {"pread", "null"}; }
  // Charges `size` bytes against the budget; throws the configured error past it.
  void Charge(const std::string& path, size_t size);

 private:
  std::atomic<int64_t> write_budget_{INT64_MAX};
  int write_errno_ = 0;
  std::set<std::string> fail_open_;
  int open_errno_ = 0;
};

}  // namespace trainbench::storage
