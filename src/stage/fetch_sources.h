// The places one stage may fetch from, in the order it tries them: the mirrors (caches) in
// the order given, then the origin. A mirror that fails hard (refuses connections, answers
// 4xx, has the wrong size, ignores Range) or fails kDemoteAfterFailures times in a row is
// demoted for the rest of the run; the origin never is (it is the last resort).
// Not thread-safe: the stage's loop thread owns it.
#pragma once

#include <string>
#include <vector>

#include "stage/source.h"
#include "stage/stage_account.h"
#include "storage/transfer_end.h"

namespace trainbench::storage {
class S3Source;
}

namespace trainbench::stage {

inline constexpr unsigned kDemoteAfterFailures = 3;

struct FetchSource {
  std::string base;  // the mirror's base URL; the origin's scheme://host[:port]
  std::string row;   // its per-source row: UrlOrigin
  bool origin = false;
  bool demoted = false;
  unsigned consecutive_failures = 0;
};

// How a failed attempt failed.
struct AttemptFailure {
  bool retryable = true;  // may succeed on another try
  bool hard = false;      // this source cannot serve the object (demote a mirror at once)
  std::string reason;     // for messages: "HTTP 503", "connection refused", ...
};

class FetchSources {
 public:
  // `mirrors`: base URLs; `s3`: the signer when the origin is on S3 (else null).
  FetchSources(const std::vector<std::string>& mirrors, const std::string& origin_url,
               const storage::S3Source* s3, SourceLedger& ledger);

  size_t size() const { return sources_.size(); }
  const FetchSource& at(size_t i) const { return sources_[i]; }
  const storage::S3Source* s3() const { return s3_; }
  // The first source not demoted (mirrors first; the origin is always usable).
  size_t Best() const;
  size_t Origin() const { return sources_.size() - 1; }
  // The URL of `object` at source `i`.
  std::string Url(size_t i, const SourceObject& object) const;
  // A success resets the source's run of failures.
  void Succeeded(size_t i) { sources_[i].consecutive_failures = 0; }
  // Counts a failure; demotes a mirror on a hard one or after kDemoteAfterFailures in a row
  // (warning once, naming the mirror and why). Returns whether it was demoted now.
  bool Failed(size_t i, const AttemptFailure& failure);

 private:
  std::vector<FetchSource> sources_;
  const storage::S3Source* s3_;
  SourceLedger& ledger_;
};

// The per-source row of the server that answered a request of `source`: the one a redirect
// reached (`effective_url`, the URL that answered; may be empty), else the source's own.
std::string ServedBy(const FetchSource& source, const std::string& effective_url);
// Counts a request of `source` answered by `served_by` (ServedBy): in the source's row, and
// in the answering server's ("redirect") row when it is another. Returns the answering row.
SourceRow& CountRequest(SourceLedger& ledger, const FetchSource& source,
                        const std::string& served_by);

// Classifies a finished attempt that did not deliver: how its transfer ended.
AttemptFailure ClassifyFailure(const storage::TransferEnd& end);

// Exponential backoff with full jitter before retry `attempt` (1 = the first retry).
double BackoffSeconds(unsigned attempt);

}  // namespace trainbench::stage
