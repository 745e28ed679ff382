// What every phase of one stage (stager.h) shares: its options, the time account it keeps
// (the phase clock, the streams' time, the sources' rows), the op-log's HEAD lines, and what
// each object must hash to. Not thread-safe: the stage's loop thread.
#pragma once

#include "stage/expected_checksum.h"
#include "stage/probe.h"
#include "stage/range_fetcher.h"
#include "stage/stage_account.h"
#include "stage/stager.h"

namespace trainbench::stage {

struct StageContext {
  const StageOptions& options;
  PhaseClock& clock;
  StreamTime& stream_time;
  SourceLedger& ledger;
  const ProbeLog& probe_log;
  const ExpectedChecksums& checksums;

  // The stage's flags as the range fetcher takes them.
  FetchOptions FetchOptionsOfStage() const {
    FetchOptions fo;
    fo.streams = options.streams;
    fo.max_attempts = options.max_attempts;
    fo.stall_timeout_s = options.stall_timeout_s;
    fo.op_log = options.op_log;
    return fo;
  }
};

}  // namespace trainbench::stage
