#include "storage/s3/s3_read_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "storage/s3/s3_request_queue.h"

namespace trainbench::storage {
namespace {

// A ReadQueue over an S3RequestQueue: each read one ranged GET into the caller's buffer.
class S3ReadQueue : public ReadQueue {
 public:
  S3ReadQueue(const S3Endpoint& endpoint, const ObjectNames& names, unsigned depth)
      : e_(endpoint), names_(names), requests_(endpoint, depth), reads_(requests_.Depth()) {}

  void Submit(const ReadRequest& r) override {
    S3Request request;
    request.key = e_.Key(names_[r.object]);
    request.range = {{r.offset, r.length}};
    reads_[requests_.Submit(request, r.tag, r.buffer, r.length)] = {r.offset, r.length};
  }

  size_t Reap(std::span<ReadCompletion> out, size_t min, double timeout_s) override {
    const size_t want = std::min<size_t>(min, out.size());
    const size_t more = want > ready_.size() ? want - ready_.size() : 0;
    requests_.Reap(more, timeout_s, [&](const S3Completion& done) {
      const Read& read = reads_[done.slot];
      ReadCompletion& c = ready_.emplace_back();
      c.tag = done.tag;
      c.offset = read.offset;
      c.latency_ns = done.latency_ns;
      // A range past the object's end reads 0 bytes: the read loop reports the short read.
      const bool past_end = done.result.curl == CURLE_OK && done.result.status == 416;
      if (std::string wrong = e_.RangeError(*done.request, done.result, *done.transfer);
          !wrong.empty())
        c.error = std::move(wrong);
      else if (done.result.Ok())
        c.bytes = std::min(done.transfer->received, read.length);
      else if (!past_end)
        c.error = e_.Error(*done.request, done.result, *done.transfer);
    });
    const size_t n = std::min(out.size(), ready_.size());
    for (size_t i = 0; i < n; ++i) out[i] = std::move(ready_[i]);
    ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }

  unsigned Depth() const override { return requests_.Depth(); }

 private:
  struct Read {
    uint64_t offset = 0, length = 0;
  };

  const S3Endpoint& e_;
  const ObjectNames& names_;
  S3RequestQueue requests_;
  std::vector<Read> reads_;  // by slot
  std::vector<ReadCompletion> ready_;
};

class S3ReadEngine : public ReadEngine {
 public:
  S3ReadEngine(const S3Endpoint& endpoint, SharedObjectNames names)
      : e_(endpoint), names_(std::move(names)) {
    capabilities_.useful_depth = 64;
    capabilities_.min_read_size = endpoint.options().range_size;
  }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<S3ReadQueue>(e_, *names_, std::max(1u, depth));
  }
  const ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return "s3 (libcurl multi)"; }
  uint64_t Opens() const override { return 0; }
  std::string DescribeObject(uint32_t object) const override {
    return e_.Describe(e_.Key((*names_)[object]));
  }

 private:
  const S3Endpoint& e_;
  SharedObjectNames names_;
  ReadEngineCapabilities capabilities_;
};

}  // namespace

std::unique_ptr<ReadEngine> MakeS3ReadEngine(const S3Endpoint& endpoint, SharedObjectNames names) {
  return std::make_unique<S3ReadEngine>(endpoint, std::move(names));
}

}  // namespace trainbench::storage
