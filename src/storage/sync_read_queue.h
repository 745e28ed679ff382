// The base of synchronous queues (fio's sync engines): Submit does the read on the
// caller's thread and hands the result to Finished; Reap returns what was finished,
// never waiting. Used by one thread at a time, as every ReadQueue.
#pragma once

#include <algorithm>
#include <vector>

#include "storage/read_queue.h"

namespace trainbench::storage {

class SyncReadQueue : public ReadQueue {
 public:
  explicit SyncReadQueue(unsigned depth) : depth_(std::max(1u, depth)) { done_.reserve(depth_); }

  size_t Reap(std::span<ReadCompletion> out, size_t, double) override {
    const size_t n = std::min(out.size(), done_.size());
    for (size_t i = 0; i < n; ++i) out[i] = std::move(done_[i]);
    done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }
  unsigned Depth() const override { return depth_; }

 protected:
  // The completion of the read being submitted, to fill in.
  ReadCompletion& Finished(const ReadRequest& request) {
    ReadCompletion& c = done_.emplace_back();
    c.tag = request.tag;
    c.offset = request.offset;
    return c;
  }

 private:
  unsigned depth_;
  std::vector<ReadCompletion> done_;
};

}  // namespace trainbench::storage
