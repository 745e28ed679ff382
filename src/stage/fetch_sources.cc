#include "stage/fetch_sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "common/log.h"

namespace trainbench::stage {

FetchSources::FetchSources(const std::vector<std::string>& mirrors, const std::string& origin_url,
                           const storage::S3Source* s3, SourceLedger& ledger)
    : s3_(s3), ledger_(ledger) {
  for (const auto& m : mirrors) {
    FetchSource s;
    s.base = m;
    s.row = UrlOrigin(m);
    ledger_.Row(s.row, "mirror");
    sources_.push_back(s);
  }
  FetchSource origin;
  origin.base = UrlOrigin(origin_url);
  origin.row = origin.base;
  origin.origin = true;
  ledger_.Row(origin.row, "origin");
  sources_.push_back(origin);
}

size_t FetchSources::Best() const {
  for (size_t i = 0; i < sources_.size(); ++i)
    if (!sources_[i].demoted) return i;
  return Origin();
}

std::string FetchSources::Url(size_t i, const SourceObject& object) const {
  if (sources_[i].origin) return object.origin_url;
  return JoinUrl(sources_[i].base, object.mirror_path);
}

bool FetchSources::Failed(size_t i, const AttemptFailure& failure) {
  FetchSource& s = sources_[i];
  ++s.consecutive_failures;
  if (s.origin || s.demoted) return false;
  if (!failure.hard && s.consecutive_failures < kDemoteAfterFailures) return false;
  s.demoted = true;
  const std::string why = failure.hard ? failure.reason
                                       : fmt::format("{} failures in a row, the last: {}",
                                                     s.consecutive_failures, failure.reason);
  SourceRow& row = ledger_.Row(s.row, "mirror");
  row.demoted = true;
  row.demoted_reason = why;
  Warn("mirror {} demoted for the rest of this stage ({}); the next source serves", s.base, why);
  return true;
}

std::string ServedBy(const FetchSource& source, const std::string& effective_url) {
  return !effective_url.empty() ? UrlOrigin(effective_url) : source.row;
}

SourceRow& CountRequest(SourceLedger& ledger, const FetchSource& source,
                        const std::string& served_by) {
  SourceRow& asked = ledger.Row(source.row, source.origin ? "origin" : "mirror");
  ++asked.requests;
  if (served_by == source.row) return asked;
  // Another server answered (a redirect): a row of its own, which may move `asked`.
  SourceRow& row = ledger.Row(served_by, "redirect");
  ++row.requests;
  return row;
}

AttemptFailure ClassifyFailure(const storage::TransferEnd& end) {
  using storage::TransferFault;
  AttemptFailure f;
  if (end.fault != TransferFault::kNone) {
    f.reason = end.error;
    switch (end.fault) {
      case TransferFault::kUnreachable:
        f.hard = true;  // a mirror that is down; the origin is retried (it may come back)
        return f;
      case TransferFault::kHandshake:  // a handshake cut short
      case TransferFault::kBroken:     // a timeout is also a stall: no byte for --stall-timeout
        return f;
      default:
        f.retryable = false;
        f.hard = true;
        return f;
    }
  }
  f.reason = fmt::format("HTTP {}", end.status);
  if (end.status >= 500 || end.status == 429 || end.status == 408) return f;
  f.retryable = false;
  f.hard = true;
  return f;
}

double BackoffSeconds(unsigned attempt) {
  // Full jitter (AWS's advice): uniform in [0, min(cap, base x 2^attempt)].
  const double cap = 10.0, base = 0.1;
  const double ceiling = std::min(cap, base * static_cast<double>(1u << std::min(attempt, 16u)));
  thread_local std::mt19937_64 rng(std::random_device{}());
  return std::uniform_real_distribution<double>(0, ceiling)(rng);
}

}  // namespace trainbench::stage
