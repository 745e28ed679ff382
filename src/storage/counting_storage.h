// A forwarding Storage that counts the bytes appended to objects being written, as they are
// written: datagen's progress line moves while a multi-gigabyte file is still open instead
// of jumping when it is committed. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>

#include "storage/forwarding_storage.h"

namespace trainbench::storage {

class CountingStorage : public ForwardingStorage {
 public:
  explicit CountingStorage(Storage& base) : ForwardingStorage(base) {}
  std::unique_ptr<AtomicWriter> Create(const std::string& path) override;
  uint64_t bytes_appended() const { return appended_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> appended_{0};
};

}  // namespace trainbench::storage
