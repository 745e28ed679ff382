// The objects a read engine reads, opened once on first use and kept open for the run
// (no open per read), up to the storage's budget (file descriptors on a file system);
// beyond it an object is opened for each read and closed after. Opens are counted as
// Darshan counts them: every open call. Thread-safe: a handle once published is read
// without a lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace trainbench::storage {

template <typename Handle>
class ObjectTable {
 public:
  using Opener = std::function<std::unique_ptr<Handle>(uint32_t object)>;

  ObjectTable(size_t objects, uint64_t budget, Opener open)
      : open_(std::move(open)),
        budget_(budget),
        handles_(objects),
        ready_(new std::atomic<bool>[objects]) {
    for (size_t i = 0; i < objects; ++i) ready_[i].store(false);
  }

  // The open handle of `object`. Over the budget, a new handle is opened into
  // `temporary`, which the caller keeps until its read has finished.
  Handle& Get(uint32_t object, std::unique_ptr<Handle>& temporary) {
    if (ready_[object].load(std::memory_order_acquire)) return *handles_[object];
    std::lock_guard<std::mutex> lock(mutex_);
    if (!handles_[object]) {
      opens_.fetch_add(1, std::memory_order_relaxed);
      if (kept_ >= budget_) {
        temporary = open_(object);
        return *temporary;
      }
      handles_[object] = open_(object);
      ++kept_;
    }
    ready_[object].store(true, std::memory_order_release);
    return *handles_[object];
  }

  uint64_t Opens() const { return opens_.load(std::memory_order_relaxed); }
  size_t size() const { return handles_.size(); }

 private:
  Opener open_;
  uint64_t budget_;
  std::vector<std::unique_ptr<Handle>> handles_;
  std::unique_ptr<std::atomic<bool>[]> ready_;
  std::mutex mutex_;
  uint64_t kept_ = 0;
  std::atomic<uint64_t> opens_{0};
};

}  // namespace trainbench::storage
