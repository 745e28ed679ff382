// A libcurl multi handle with a fixed set of easy handles, one per request slot (the
// connections stay open from one request to the next), and the one step every multi loop
// in trainbench shares: let libcurl move the transfers on, then hand back each one that
// finished. Its users: the S3 request queue (s3/s3_request_queue.h: the s3 read engine and
// S3Source's HEADs) and RangeStreams (range_streams.h, stage's ranged GETs). Not thread-safe: one
// thread drives it.
#pragma once

#include <curl/curl.h>

#include <functional>
#include <vector>

#include "storage/transfer_end.h"

namespace trainbench::storage {

class CurlMulti {
 public:
  // A multi handle, `handles` easy handles, at most `handles` connections per host.
  explicit CurlMulti(unsigned handles);
  ~CurlMulti();
  CurlMulti(const CurlMulti&) = delete;
  CurlMulti& operator=(const CurlMulti&) = delete;

  unsigned size() const { return static_cast<unsigned>(slots_.size()); }
  CURL* easy(unsigned i) const { return slots_[i].easy; }
  bool Active(unsigned i) const { return slots_[i].active; }
  // Starts slot i's transfer, its easy handle set up by the caller (after any reset).
  void Add(unsigned i);
  // Stops slot i's transfer if it runs.
  void Remove(unsigned i);
  // Lets libcurl move every transfer on, then calls done(i, code) for each that finished,
  // its handle already removed (so `done` may set it up and Add it again).
  void PerformAndReap(const std::function<void(unsigned, CURLcode)>& done);
  // Waits up to `seconds` for activity on the transfers' sockets.
  void Poll(double seconds);

 private:
  struct Slot {
    CURL* easy = nullptr;
    bool active = false;
  };
  CURLM* multi_;
  std::vector<Slot> slots_;
};

// A transfer cut below HTTP in a way another try may mend: a timeout (a stall included),
// a reset, a body cut short, nothing answered, an HTTP/2 stream error. What else is
// transient depends on the caller (a refused connection is for S3, not for a mirror).
bool CurlTransferBroke(CURLcode code);

// A finished transfer on `easy` as transfer_end.h says it: `code` and libcurl's error text
// (`error`, may be empty) sorted into a fault, the final status and the answering URL.
TransferEnd EndOfTransfer(CURL* easy, CURLcode code, const char* error);

}  // namespace trainbench::storage
