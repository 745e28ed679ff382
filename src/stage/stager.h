// `trainbench stage SOURCE DEST`: lists SOURCE's objects, probes each, fetches what DEST
// lacks as parallel ranged GETs (RangeFetcher) through the mirrors and the origin, resumes
// from each object's journal, verifies each object's checksum in order as its bytes arrive
// (--sha256, --checksums, a Digest header, an S3 ETag), repairs chunks that differ on a
// re-fetch, and renames DEST/NAME.part to DEST/NAME only when the object is whole and
// verified. With extract, one tar archive streams into DEST instead (extract_target.h).
// Keeps the time account of it all. Not thread-safe: one stage per process.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "metrics/op_log.h"
#include "stage/stage_account.h"
#include "stage/stage_live.h"

namespace trainbench::stage {

struct StageOptions {
  std::string source;
  std::string dest;
  std::vector<std::string> mirrors;
  unsigned streams = 4;
  uint64_t chunk_size = 8ull << 20;
  unsigned max_attempts = 10;
  double stall_timeout_s = 30;
  std::string sha256;          // hex; one object only
  std::string checksums_file;  // sha256sum format, names relative to DEST
  bool extract = false;
  bool progress = true;
  std::map<std::string, std::string> s3_options;  // DLIO's storage_options keys
  StageLive* live = nullptr;  // when set, the fetch's figures as they grow (the time series)
  // When set, every request (each HEAD, each ranged GET's attempt) as an op-log line.
  std::shared_ptr<metrics::OpLog> op_log;
};

// Usage checks that need no network: throws UsageError naming the flag.
void CheckStageOptions(const StageOptions& options);

struct StageOutcome {
  StageAccount account;
  int exit_code = 0;  // 0, 1 (failed: `error` says why), 130 (interrupted)
  std::string error;
};

// Throws UsageError for a bad SOURCE or checksum list; every other failure ends in the
// outcome (with what was measured up to it).
StageOutcome RunStage(const StageOptions& options);

}  // namespace trainbench::stage
