// A forwarding Storage that fails on cue, for tests of error paths (leveldb's
// fault-injection Env): writes fail with a chosen errno once a byte budget is spent
// (a full disk), and opens of chosen paths fail (a broken file). Thread-safe.
#pragma once

#include <atomic>
#include <set>
#include <string>

#include "storage/storage.h"

namespace trainbench::storage {

class FaultInjectingStorage : public Storage {
 public:
  explicit FaultInjectingStorage(Storage& base) : base_(base) {}

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
  std::optional<uint64_t> FileSize(const std::string& path) override {
    return base_.FileSize(path);
  }
  void Remove(const std::string& path) override { base_.Remove(path); }
  std::vector<ListEntry> List(const std::string& prefix) override { return base_.List(prefix); }
  size_t RemoveLeftovers(const std::string& prefix) override {
    return base_.RemoveLeftovers(prefix);
  }
  std::string Describe(const std::string& path) const override { return base_.Describe(path); }
  std::optional<std::string> LocalPath(const std::string& path) const override {
    return base_.LocalPath(path);
  }

  // Charges `size` bytes against the budget; throws the configured error past it.
  void Charge(const std::string& path, size_t size);

 private:
  Storage& base_;
  std::atomic<int64_t> write_budget_{INT64_MAX};
  int write_errno_ = 0;
  std::set<std::string> fail_open_;
  int open_errno_ = 0;
};

}  // namespace trainbench::storage
