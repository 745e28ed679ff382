// S3 requests in flight together on one thread: Submit signs and starts one in a free slot
// of a CurlMulti, Reap drives them all and hands back each that finished. A request that
// fails in a way another try may mend (S3Endpoint::Retryable: 5xx, SlowDown, a cut
// connection) is tried again after a jittered backoff without blocking the others, up to
// s3_max_attempts tries in all. Its users: the s3 read engine's queues (ranged GETs into
// the reader's buffers) and stage's probe of the objects under an s3:// prefix (HEADs).
// Not thread-safe: one thread drives a queue.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "storage/http/curl_multi.h"
#include "storage/s3/s3_http.h"

namespace trainbench::storage {

// A finished request; the pointers are valid only while the Reap callback runs.
struct S3Completion {
  uint64_t tag = 0;
  unsigned slot = 0;  // what Submit returned
  const S3Request* request = nullptr;
  const S3Transfer* transfer = nullptr;  // the last attempt's answer
  S3Result result;                       // the last attempt's outcome
  unsigned attempts = 1;
  uint64_t latency_ns = 0;       // from Submit to the end, failed attempts and backoffs included
  uint64_t last_attempt_ns = 0;  // of that, the last attempt alone
};

class S3RequestQueue {
 public:
  // `endpoint` must outlive the queue; `depth` requests at most in flight.
  S3RequestQueue(const S3Endpoint& endpoint, unsigned depth);

  unsigned Depth() const { return multi_.size(); }
  bool Full() const { return free_.empty(); }
  // Starts `request` in a free slot (Full() must be false). Its body goes to `out`, up to
  // `capacity` bytes, or with `out` null into the transfer's text. Returns the slot (below
  // Depth()): no other request has it until this one is handed back.
  unsigned Submit(const S3Request& request, uint64_t tag, unsigned char* out = nullptr,
                  uint64_t capacity = 0);
  // Drives the requests until at least `min` have finished in this call or `timeout_s` has
  // passed (at least one turn either way), calling `done` for each finished one (its slot
  // is free again once `done` returns). Returns how many finished.
  size_t Reap(size_t min, double timeout_s, const std::function<void(const S3Completion&)>& done);

 private:
  struct Slot {
    S3Request request;
    S3Transfer transfer;
    uint64_t tag = 0, submitted_ns = 0;
    unsigned char* out = nullptr;
    uint64_t capacity = 0;
    unsigned attempt = 1;
    double retry_at = 0;  // > 0: waiting to be tried again at this time
  };

  void Start(unsigned i);
  void RestartDue();

  const S3Endpoint& e_;
  CurlMulti multi_;
  std::vector<Slot> slots_;
  std::vector<unsigned> free_;
};

}  // namespace trainbench::storage
