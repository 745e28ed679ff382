// What RangeStreams asks of a ranged GET it cannot make from a URL alone: a signed S3
// GetObject. The HTTP client declares it and s3/ implements it (S3Source::signer), so the
// client knows nothing of S3 or SigV4. Implementations are immutable and thread-safe; a
// request's state belongs to one stream.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <string>

namespace trainbench::storage {

// What a signed request needs while it runs (its header list), kept by the stream until it
// prepares the next one.
class SignedRequestState {
 public:
  virtual ~SignedRequestState() = default;
};

class RangeGetSigner {
 public:
  virtual ~RangeGetSigner() = default;
  // Resets `easy` and sets it up for a signed GET of bytes [offset, offset + length) of
  // `key`. `state` is made on a stream's first request and handed back for its next ones.
  // The caller sets the body and header callbacks and the error buffer afterwards.
  virtual void PrepareRangeGet(CURL* easy, const std::string& key, uint64_t offset, uint64_t length,
                               std::unique_ptr<SignedRequestState>& state) const = 0;
};

}  // namespace trainbench::storage
