// Before fetching an object: its size, what names this version of it (ETag, Last-Modified:
// a journal from another version is not resumed), and any checksum the server gives (a
// `Digest: sha-256=` or `Repr-Digest` header; an S3 single-part ETag, the object's MD5).
// The origin is asked first (its answer is the reference a mirror's size is checked
// against); when it cannot answer, the mirrors in order. Redirects are followed. The
// objects under an s3:// prefix are asked about many at a time (ProbeS3Objects).
// Thread-compatible: one call at a time per FetchSources.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "metrics/op_log.h"
#include "stage/fetch_sources.h"
#include "stage/source.h"
#include "stage/stage_account.h"

namespace trainbench::stage {

// Takes each HEAD as an op-log record (op, file, endpoint, error and times filled in); may
// be empty.
using ProbeLog = std::function<void(metrics::OpRecord&)>;

struct ProbeResult {
  uint64_t size = 0;
  std::string identity;
  std::optional<std::string> sha256_hex;
  std::optional<std::string> md5_hex;
  std::string checksum_from;  // "Digest header", "S3 ETag"
};

// The objects of an S3 SOURCE (sources.s3() set): HEADs of them all, `concurrency` in
// flight at once (storage::S3Source::HeadAll), each attempt a request of the origin's row
// in `ledger` (failed ones its retries too). Throws RuntimeError naming an object that is
// not there, IoError when a HEAD still fails after its retries, Interrupted on Ctrl-C.
std::vector<ProbeResult> ProbeS3Objects(FetchSources& sources,
                                        const std::vector<SourceObject>& objects,
                                        unsigned concurrency, SourceLedger& ledger,
                                        StreamTime& stream_time, const ProbeLog& log = {});

// Throws RuntimeError naming the object, the URLs tried and the last error when no source
// answers within max_attempts tries, or the origin says the object is not there.
ProbeResult ProbeObject(FetchSources& sources, const SourceObject& object, unsigned max_attempts,
                        SourceLedger& ledger, StreamTime& stream_time, const ProbeLog& log = {});

}  // namespace trainbench::stage
