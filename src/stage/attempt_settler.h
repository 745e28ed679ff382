// What a finished attempt of one of the range fetcher's streams (fetch_slot.h) comes to. It
// is counted in the row of the source asked, and of the server a redirect reached (requests,
// bytes, latency, retries), in the stream time (useful, wasted) and in the fetch's result,
// with its op-log GET line. For one that failed, it decides what follows: the bytes that
// arrived kept (a cut, a stall, a short body) or thrown away (a wrong answer), the next source
// and when (at once at another one, after a backoff at the same), or the end of the fetch.
// Not thread-safe: the fetch's loop thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "metrics/op_log.h"
#include "stage/fetch_slot.h"
#include "stage/fetch_sources.h"
#include "stage/range_fetcher.h"
#include "stage/stage_account.h"
#include "storage/transfer_end.h"

namespace trainbench::stage {

class AttemptSettler {
 public:
  // `streams`: the fetcher's, each an op-log thread of its own (consecutive ones).
  AttemptSettler(FetchSources& sources, SourceLedger& ledger, StreamTime& stream_time,
                 const FetchOptions& options, size_t streams);

  // Slot `s`'s attempt at a chunk of `item` ended as `end`. True: the whole chunk arrived
  // (the slot still holds it, its hash the chunk's). False: it is tried again, at
  // s.retry_at. Throws IoError when the part file refused the bytes, RuntimeError when this
  // was the last attempt or the origin refuses the chunk.
  bool Settle(FetchSlot& s, const storage::TransferEnd& end, const FetchItem& item,
              FetchResult& result);
  // The op-log lines so far go to the log (a killed stage keeps those of what it journaled).
  void FlushLog();

 private:
  // How the attempt ended, as its outcome is counted.
  struct AttemptEnd {
    double now = 0, duration = 0;
    SourceRow* row = nullptr;  // of the server that answered
    std::string log_endpoint;  // the op-log line's
    uint64_t fresh = 0;        // the chunk's bytes this attempt brought
    bool status_ok = false;    // the answer's status fits the range asked (StatusFits)
    bool ended = false;        // the transfer ran to its end
  };

  AttemptEnd Tally(FetchSlot& s, const storage::TransferEnd& end, FetchResult& result);
  void Delivered(FetchSlot& s, const AttemptEnd& e, const FetchItem& item, FetchResult& result);
  void ThrowIfWriteFailed(const FetchSlot& s, const FetchItem& item) const;
  void KeepArrived(FetchSlot& s, const AttemptEnd& e, FetchResult& result);
  void Discard(FetchSlot& s, const AttemptEnd& e);
  void ThrowIfOutOfAttempts(const FetchSlot& s, const AttemptFailure& f,
                            const storage::TransferEnd& end, const FetchItem& item) const;
  void Retry(FetchSlot& s, bool demoted, double now);
  void Log(const FetchSlot& s, const FetchItem& item, const std::string& endpoint, uint64_t bytes,
           const std::string& error);

  FetchSources& sources_;
  SourceLedger& ledger_;
  StreamTime& stream_time_;
  const unsigned max_attempts_;
  std::unique_ptr<metrics::OpLogBuffer> op_log_;  // null: no op-log
  uint64_t first_thread_ = 0;                     // the op-log's thread of stream 0
};

}  // namespace trainbench::stage
