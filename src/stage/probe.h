// Before fetching an object: its size, what names this version of it (ETag, Last-Modified:
// a journal from another version is not resumed), and any checksum the server gives (a
// `Digest: sha-256=` or `Repr-Digest` header; an S3 single-part ETag, the object's MD5).
// The origin is asked first (its answer is the reference a mirror's size is checked
// against); when it cannot answer, the mirrors in order. Redirects are followed.
// Thread-compatible: one call at a time per FetchSources.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "stage/fetch_sources.h"
#include "stage/source.h"
#include "stage/stage_account.h"

namespace trainbench::stage {

struct ProbeResult {
  uint64_t size = 0;
  std::string identity;
  std::optional<std::string> sha256_hex;
  std::optional<std::string> md5_hex;
  std::string checksum_from;  // "Digest header", "S3 ETag"
};

// Throws RuntimeError naming the object, the URLs tried and the last error when no source
// answers within max_attempts tries, or the origin says the object is not there.
ProbeResult ProbeObject(FetchSources& sources, const SourceObject& object, unsigned max_attempts,
                        SourceLedger& ledger, StreamTime& stream_time);

}  // namespace trainbench::stage
