// A Storage that passes every call to another one (leveldb's EnvWrapper): wrappers that
// watch or change a few operations (fault injection, byte counting) override only those.
// Thread-safe as the storage it wraps.
#pragma once

#include "storage/storage.h"

namespace trainbench::storage {

class ForwardingStorage : public Storage {
 public:
  explicit ForwardingStorage(Storage& base) : base_(base) {}

  std::unique_ptr<AtomicWriter> Create(const std::string& path) override {
    return base_.Create(path);
  }
  std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                         const OpenOptions& options) override {
    return base_.Open(path, options);
  }
  std::optional<uint64_t> FileSize(const std::string& path) override {
    return base_.FileSize(path);
  }
  void Remove(const std::string& path) override { base_.Remove(path); }
  std::vector<ListEntry> List(const std::string& prefix) override { return base_.List(prefix); }
  // ListEach is not forwarded: Storage's own goes through List, so a decorator that counts or
  // logs List (CountingStorage, OpLogStorage) sees every listing, at the cost of the list.
  size_t RemoveLeftovers(const std::string& prefix) override {
    return base_.RemoveLeftovers(prefix);
  }
  std::string Describe(const std::string& path) const override { return base_.Describe(path); }
  std::optional<std::string> LocalPath(const std::string& path) const override {
    return base_.LocalPath(path);
  }
  std::string EndpointUrl() const override { return base_.EndpointUrl(); }
  std::unique_ptr<ReadEngine> OpenReadEngine(SharedObjectNames objects,
                                             const ReadEngineOptions& options) override {
    return base_.OpenReadEngine(std::move(objects), options);
  }
  std::string DefaultReadEngine() const override { return base_.DefaultReadEngine(); }
  std::vector<std::string> ReadEngines() const override { return base_.ReadEngines(); }
  uint64_t OpenObjectBudget(uint64_t wanted) override { return base_.OpenObjectBudget(wanted); }
  std::map<std::string, double> Counters() const override { return base_.Counters(); }
  std::map<std::string, metrics::Histogram> OperationLatencies() const override {
    return base_.OperationLatencies();
  }
  LockAttempt TryLock(const std::string& path) override { return base_.TryLock(path); }
  LockAttempt TryLockFreshName(const std::string& path) override {
    return base_.TryLockFreshName(path);
  }

 protected:
  Storage& base_;
};

}  // namespace trainbench::storage
