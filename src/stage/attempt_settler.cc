#include "stage/attempt_settler.h"

#include <fmt/format.h>

#include <cstring>

#include "common/clock.h"
#include "common/error.h"

namespace trainbench::stage {
namespace {

void CountFetched(FetchResult& result, const FetchSlot& s, uint64_t bytes) {
  result.bytes += bytes;
  result.item_bytes[s.item] += bytes;
}

}  // namespace

AttemptSettler::AttemptSettler(FetchSources& sources, SourceLedger& ledger, StreamTime& stream_time,
                               const FetchOptions& options, size_t streams)
    : sources_(sources),
      ledger_(ledger),
      stream_time_(stream_time),
      max_attempts_(options.max_attempts) {
  if (!options.op_log) return;
  op_log_ = std::make_unique<metrics::OpLogBuffer>(options.op_log);
  first_thread_ = options.op_log->NextThread();  // the streams' are consecutive
  for (size_t i = 1; i < streams; ++i) options.op_log->NextThread();
}

bool AttemptSettler::Settle(FetchSlot& s, const storage::TransferEnd& end, const FetchItem& item,
                            FetchResult& result) {
  const AttemptEnd e = Tally(s, end, result);
  if (e.ended && s.fail.empty() && e.status_ok && s.received == s.length) {
    Delivered(s, e, item, result);
    return true;
  }
  ThrowIfWriteFailed(s, item);
  const AttemptFailure f = WhyAttemptFailed(s, end, e.status_ok);
  Log(s, item, e.log_endpoint, e.fresh, f.reason);
  ++e.row->retries;
  ++stream_time_.retries;
  if (s.fail.empty() && e.fresh > 0)
    KeepArrived(s, e, result);
  else
    Discard(s, e);
  const bool demoted = sources_.Failed(s.source, f);
  ThrowIfOutOfAttempts(s, f, end, item);
  Retry(s, demoted, e.now);
  return false;
}

void AttemptSettler::FlushLog() {
  if (op_log_) op_log_->Flush();
}

// Counts the attempt as a request of its source's row (and of the row of the server a
// redirect reached), and takes back the bytes a 200's restart threw away.
AttemptSettler::AttemptEnd AttemptSettler::Tally(FetchSlot& s, const storage::TransferEnd& end,
                                                 FetchResult& result) {
  AttemptEnd e;
  e.now = NowSeconds();
  e.duration = e.now - s.attempt_start;
  const FetchSource& source = sources_.at(s.source);
  const std::string served_by = ServedBy(source, end.effective_url);
  e.row = &CountRequest(ledger_, source, served_by);
  e.status_ok = StatusFits(s, end.status);
  if (s.restarted > 0) {  // counted when they arrived; fetched again since
    result.bytes -= s.restarted;
    result.item_bytes[s.item] -= s.restarted;
    stream_time_.wasted_bytes += s.restarted;
    s.restarted = 0;
  }
  e.fresh = s.received - s.attempt_kept;
  // S3's origin is the log's own endpoint (the s3:// SOURCE), so a replay finds its objects.
  e.log_endpoint = source.origin && sources_.s3() ? "" : served_by;
  e.ended = end.fault == storage::TransferFault::kNone;
  return e;
}

// The whole chunk arrived.
void AttemptSettler::Delivered(FetchSlot& s, const AttemptEnd& e, const FetchItem& item,
                               FetchResult& result) {
  Log(s, item, e.log_endpoint, e.fresh, "");
  e.row->bytes += e.fresh;
  e.row->latency_ns.Record(static_cast<uint64_t>(e.duration * 1e9));
  stream_time_.useful_s += e.duration;
  sources_.Succeeded(s.source);
  CountFetched(result, s, e.fresh);
  s.kept = s.resumed = 0;
}

// The part file refused the bytes (a full disk): no source can mend that.
void AttemptSettler::ThrowIfWriteFailed(const FetchSlot& s, const FetchItem& item) const {
  if (s.write_errno == 0) return;
  throw IoError(fmt::format("cannot write {} at offset {}: {}; free space in DEST or choose "
                            "another",
                            item.part_path, s.offset + s.received, std::strerror(s.write_errno)),
                s.write_errno);
}

// Cut, stalled or short, but what arrived is the chunk's: kept, and the next attempt asks for
// the rest. Its time up to its last byte delivered; the rest (a stall, the wait for the cut to
// show) is wasted.
void AttemptSettler::KeepArrived(FetchSlot& s, const AttemptEnd& e, FetchResult& result) {
  s.kept = s.received;
  e.row->bytes += e.fresh;
  CountFetched(result, s, e.fresh);
  stream_time_.useful_s += s.last_byte - s.attempt_start;
  stream_time_.wasted_s += e.now - s.last_byte;
}

// Nothing of the attempt is kept: its time is wasted.
void AttemptSettler::Discard(FetchSlot& s, const AttemptEnd& e) {
  stream_time_.wasted_s += e.duration;
  if (!s.fail.empty()) {
    // The source answered wrongly: nothing of the chunk is trusted, kept bytes included.
    stream_time_.wasted_bytes += s.received;
    s.kept = s.resumed = 0;
  }
}

// The last attempt failed, or the origin refuses the chunk: the fetch fails.
void AttemptSettler::ThrowIfOutOfAttempts(const FetchSlot& s, const AttemptFailure& f,
                                          const storage::TransferEnd& end,
                                          const FetchItem& item) const {
  const bool refused = sources_.at(s.source).origin && !f.retryable;
  if (!refused && s.attempt < max_attempts_) return;
  const std::string where =
      !end.effective_url.empty() ? end.effective_url : sources_.Url(s.source, item.object);
  throw RuntimeError(fmt::format(
      "cannot fetch {} bytes {}-{} (chunk {}): {} failed attempt{}, the last at {}: {}; {}",
      item.object.name, s.offset, s.offset + s.length - 1, s.chunk, s.attempt,
      s.attempt == 1 ? "" : "s", where, f.reason,
      refused ? "the origin refuses it: check SOURCE"
              : "raise --max-attempts, add a --mirror, or run again later (the journal keeps "
                "what was fetched)"));
}

// The next attempt goes to the best source: another one (a mirror was demoted) at once, the
// same one after a backoff.
void AttemptSettler::Retry(FetchSlot& s, bool demoted, double now) {
  ++s.attempt;
  const size_t previous = s.source;
  s.source = sources_.Best();
  s.wait_start = now;
  s.retry_at = demoted || s.source != previous ? now : now + BackoffSeconds(s.attempt - 1);
}

// One GET line for slot `s`'s attempt: `bytes` of it received from `endpoint`.
void AttemptSettler::Log(const FetchSlot& s, const FetchItem& item, const std::string& endpoint,
                         uint64_t bytes, const std::string& error) {
  if (!op_log_) return;
  metrics::OpRecord r;
  r.thread = first_thread_ + s.index;
  r.op = "GET";
  r.bytes = bytes;
  r.file = item.object.name;
  r.error = error;
  r.endpoint = endpoint;
  r.start_ns = s.start_ns;
  r.first_byte_ns = s.first_byte_ns;
  r.end_ns = metrics::WallNanos();
  op_log_->Add(r);
}

}  // namespace trainbench::stage
