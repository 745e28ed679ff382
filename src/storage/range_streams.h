// Ranged GETs of remote objects on kept-alive connections, several in flight on one thread:
// storage's public face for a downloader (stage's range fetcher) that keeps its own chunks,
// retries and accounts. A range is read from an http(s):// or file:// URL, or from an S3
// object as a signed GetObject (S3Source). Each stream's body bytes go, in order, to one
// receiver with the head of the answer they belong to; redirects are followed; a stream
// that receives no byte for `stall_timeout_s` is cut (and ends as TransferFault::kBroken).
// Not thread-safe: one thread starts, drives and reaps the streams.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "storage/transfer_end.h"

namespace trainbench::storage {

class S3Source;

struct RangeGet {
  std::string url;               // http://, https:// or file://; unused with `s3`
  const S3Source* s3 = nullptr;  // set: a signed GetObject of `s3_key` instead
  std::string s3_key;
  uint64_t offset = 0, length = 0;
  double stall_timeout_s = 30;
};

// The head of the answer, as known when its first body byte arrives.
struct RangeReply {
  bool file = false;  // a file:// URL: no HTTP status, no Content-Range
  long status = 0;
  std::optional<uint64_t> range_start, range_total;  // a 206's "bytes START-END/TOTAL"
};

class RangeStreams {
 public:
  // Stream `stream`'s next body bytes; returning false stops its transfer, which then ends
  // as TransferFault::kAborted.
  using Receiver =
      std::function<bool(unsigned stream, const RangeReply& reply, const char* data, size_t size)>;

  // `streams` transfers at most, on as many connections per host; `user_agent` names the
  // client to HTTP servers.
  RangeStreams(unsigned streams, Receiver receiver, std::string user_agent);
  ~RangeStreams();
  RangeStreams(const RangeStreams&) = delete;
  RangeStreams& operator=(const RangeStreams&) = delete;

  unsigned size() const;
  bool Active(unsigned stream) const;
  // Starts `get` on a stream that is not active.
  void Start(unsigned stream, const RangeGet& get);
  // Stops a stream's transfer if it runs (no end is reported for it).
  void Stop(unsigned stream);
  // Lets every transfer move on, then calls done(stream, end) for each that finished (its
  // stream already inactive, so `done` may start it again).
  void PerformAndReap(const std::function<void(unsigned, const TransferEnd&)>& done);
  // Waits up to `seconds` for activity on the transfers' sockets.
  void Poll(double seconds);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trainbench::storage
