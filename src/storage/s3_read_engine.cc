#include "storage/s3_read_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/clock.h"
#include "common/error.h"

namespace trainbench::storage {
namespace {

class S3ReadQueue : public ReadQueue {
 public:
  S3ReadQueue(const S3Endpoint& endpoint, const std::vector<std::string>& keys, unsigned depth)
      : e_(endpoint), keys_(keys), multi_(curl_multi_init()), slots_(depth) {
    if (!multi_) throw RuntimeError("curl_multi_init failed");
    curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(depth));
    for (unsigned i = 0; i < depth; ++i) {
      slots_[i].easy = curl_easy_init();
      if (!slots_[i].easy) throw RuntimeError("curl_easy_init failed");
      free_.push_back(i);
    }
  }
  ~S3ReadQueue() override {
    for (auto& s : slots_) {
      if (s.active) curl_multi_remove_handle(multi_, s.easy);
      curl_easy_cleanup(s.easy);
    }
    curl_multi_cleanup(multi_);
  }

  void Submit(const ReadRequest& r) override {
    const unsigned i = free_.back();
    free_.pop_back();
    Slot& s = slots_[i];
    s.request = S3Request{};
    s.request.key = keys_[r.object];
    s.request.range = {{r.offset, r.length}};
    s.tag = r.tag;
    s.offset = r.offset;
    s.length = r.length;
    s.buffer = r.buffer;
    s.attempt = 1;
    s.submitted_ns = NowNanoseconds();
    Start(i);
  }

  size_t Reap(std::span<ReadCompletion> out, size_t min, double timeout_s) override {
    const double deadline = NowSeconds() + timeout_s;
    for (;;) {
      int running = 0;
      curl_multi_perform(multi_, &running);
      int left = 0;
      while (CURLMsg* msg = curl_multi_info_read(multi_, &left))
        if (msg->msg == CURLMSG_DONE) Done(msg->easy_handle, msg->data.result);
      RestartDue();
      const double now = NowSeconds();
      if (ready_.size() >= std::min<size_t>(min, out.size()) || now >= deadline) break;
      double wait = deadline - now;
      for (const auto& s : slots_)
        if (s.retry_at > 0) wait = std::min(wait, std::max(0.0, s.retry_at - now));
      curl_multi_poll(multi_, nullptr, 0, static_cast<int>(wait * 1000) + 1, nullptr);
    }
    const size_t n = std::min(out.size(), ready_.size());
    for (size_t i = 0; i < n; ++i) out[i] = std::move(ready_[i]);
    ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }

  unsigned Depth() const override { return static_cast<unsigned>(slots_.size()); }

 private:
  struct Slot {
    CURL* easy = nullptr;
    S3Request request;
    S3Transfer transfer;
    uint64_t tag = 0, offset = 0, length = 0, submitted_ns = 0;
    unsigned char* buffer = nullptr;
    unsigned attempt = 1;
    double retry_at = 0;  // > 0: waiting to be tried again at this time
    bool active = false;  // in the multi handle
  };

  void Start(unsigned i) {
    Slot& s = slots_[i];
    e_.Prepare(s.easy, s.request, s.transfer);
    s.transfer.out = s.buffer;
    s.transfer.out_capacity = s.length;
    curl_easy_setopt(s.easy, CURLOPT_PRIVATE, reinterpret_cast<void*>(static_cast<uintptr_t>(i)));
    s.retry_at = 0;
    s.active = true;
    curl_multi_add_handle(multi_, s.easy);
  }

  void RestartDue() {
    const double now = NowSeconds();
    for (unsigned i = 0; i < slots_.size(); ++i)
      if (slots_[i].retry_at > 0 && slots_[i].retry_at <= now) Start(i);
  }

  void Done(CURL* easy, CURLcode code) {
    void* p = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &p);
    const auto i = static_cast<unsigned>(reinterpret_cast<uintptr_t>(p));
    Slot& s = slots_[i];
    curl_multi_remove_handle(multi_, easy);
    s.active = false;
    const S3Result result = S3Endpoint::Finish(easy, code);
    e_.RecordLatency(s.request, s.transfer);
    const bool past_end = result.curl == CURLE_OK && result.status == 416;
    if (!result.Ok() && !past_end && s.attempt < e_.options().max_attempts &&
        S3Endpoint::Retryable(result, s.transfer)) {
      const double backoff = e_.BackoffSeconds(s.attempt);
      e_.CountRetry(s.transfer, backoff);
      s.retry_at = NowSeconds() + backoff;
      ++s.attempt;
      return;
    }
    ReadCompletion& c = ready_.emplace_back();
    c.tag = s.tag;
    c.offset = s.offset;
    c.latency_ns = NowNanoseconds() - s.submitted_ns;
    if (result.Ok())
      c.bytes = std::min(s.transfer.received, s.length);
    else if (!past_end)
      c.error = e_.Error(s.request, result, s.transfer);
    free_.push_back(i);
  }

  const S3Endpoint& e_;
  const std::vector<std::string>& keys_;
  CURLM* multi_;
  std::vector<Slot> slots_;
  std::vector<unsigned> free_;
  std::vector<ReadCompletion> ready_;
};

class S3ReadEngine : public ReadEngine {
 public:
  S3ReadEngine(const S3Endpoint& endpoint, std::vector<std::string> keys)
      : e_(endpoint), keys_(std::move(keys)) {
    capabilities_.useful_depth = 64;
  }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override {
    return std::make_unique<S3ReadQueue>(e_, keys_, std::max(1u, depth));
  }
  const ReadEngineCapabilities& Capabilities() const override { return capabilities_; }
  std::string Describe() const override { return "s3 (libcurl multi)"; }
  uint64_t Opens() const override { return 0; }
  std::string DescribeObject(uint32_t object) const override { return e_.Describe(keys_[object]); }

 private:
  const S3Endpoint& e_;
  std::vector<std::string> keys_;
  ReadEngineCapabilities capabilities_;
};

}  // namespace

std::unique_ptr<ReadEngine> MakeS3ReadEngine(const S3Endpoint& endpoint,
                                             std::vector<std::string> keys) {
  return std::make_unique<S3ReadEngine>(endpoint, std::move(keys));
}

}  // namespace trainbench::storage
