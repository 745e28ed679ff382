#include "storage/s3/s3_request_queue.h"

#include <algorithm>

#include "common/clock.h"

namespace trainbench::storage {

S3RequestQueue::S3RequestQueue(const S3Endpoint& endpoint, unsigned depth)
    : e_(endpoint), multi_(std::max(1u, depth)), slots_(multi_.size()) {
  for (unsigned i = multi_.size(); i > 0; --i) free_.push_back(i - 1);
}

unsigned S3RequestQueue::Submit(const S3Request& request, uint64_t tag, unsigned char* out,
                                uint64_t capacity) {
  const unsigned i = free_.back();
  free_.pop_back();
  Slot& s = slots_[i];
  s.request = request;
  s.tag = tag;
  s.out = out;
  s.capacity = capacity;
  s.attempt = 1;
  s.transfer.failed_tries.clear();
  s.submitted_ns = NowNanoseconds();
  Start(i);
  return i;
}

void S3RequestQueue::Start(unsigned i) {
  Slot& s = slots_[i];
  e_.Prepare(multi_.easy(i), s.request, s.transfer);
  s.transfer.out = s.out;
  s.transfer.out_capacity = s.capacity;
  s.retry_at = 0;
  multi_.Add(i);
}

void S3RequestQueue::RestartDue() {
  const double now = NowSeconds();
  for (unsigned i = 0; i < slots_.size(); ++i)
    if (slots_[i].retry_at > 0 && slots_[i].retry_at <= now) Start(i);
}

size_t S3RequestQueue::Reap(size_t min, double timeout_s,
                            const std::function<void(const S3Completion&)>& done) {
  const double deadline = NowSeconds() + timeout_s;
  size_t finished = 0;
  auto on_done = [&](unsigned i, CURLcode code) {
    Slot& s = slots_[i];
    const S3Result result = S3Endpoint::Finish(multi_.easy(i), code);
    e_.RecordLatency(s.request, s.transfer);
    if (!result.Ok() && s.attempt < e_.options().max_attempts &&
        S3Endpoint::Retryable(result, s.transfer)) {
      const double backoff = e_.BackoffSeconds(s.attempt);
      e_.CountRetry(s.transfer, result, backoff);
      s.retry_at = NowSeconds() + backoff;
      ++s.attempt;
      return;
    }
    S3Completion c;
    c.tag = s.tag;
    c.slot = i;
    c.request = &s.request;
    c.transfer = &s.transfer;
    c.result = result;
    c.attempts = s.attempt;
    const uint64_t now_ns = NowNanoseconds();
    c.latency_ns = now_ns - s.submitted_ns;
    c.last_attempt_ns = now_ns - s.transfer.started_ns;
    ++finished;
    done(c);
    free_.push_back(i);
  };
  for (;;) {
    multi_.PerformAndReap(on_done);
    RestartDue();
    const double now = NowSeconds();
    if (finished >= min || now >= deadline) break;
    double wait = deadline - now;
    for (const auto& s : slots_)
      if (s.retry_at > 0) wait = std::min(wait, std::max(0.0, s.retry_at - now));
    multi_.Poll(wait);
  }
  return finished;
}

}  // namespace trainbench::storage
