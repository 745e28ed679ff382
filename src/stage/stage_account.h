// The time account of one stage: where its wall time went, in disjoint shares that add up
// to it, and what each source (origin, mirror, redirect target) served.
//
// Shares: the stage's one loop thread is always in exactly one phase (PhaseClock): fetching
// (requests in flight, backoffs, probes, journal upkeep), verifying (hashing staged bytes) or
// extracting (inside the tar extractor). The fetch phase is then split between transfer_s
// and retry_wasted_s in the ratio of stream time spent in attempts that delivered to stream
// time spent in attempts thrown away (failed attempts and their backoff waits), so the four
// shares add up to wall_s by construction. A job that trains on what it staged (`train
// --stage-to`) adds its compute time as a fifth share (AddCompute).
// Not thread-safe: the stage's loop thread owns it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "metrics/histogram.h"

namespace trainbench::stage {

enum class Phase { kFetch = 0, kVerify = 1, kExtract = 2 };

class PhaseClock {
 public:
  PhaseClock();
  // Starts timing `phase`; returns the phase that was running.
  Phase Switch(Phase phase);
  double Seconds(Phase phase) const;
  double Total() const;

 private:
  Phase current_ = Phase::kFetch;
  double since_;
  double seconds_[3] = {0, 0, 0};
};

// Times a block as `phase` and returns to the phase before.
class PhaseScope {
 public:
  PhaseScope(PhaseClock& clock, Phase phase) : clock_(clock), previous_(clock.Switch(phase)) {}
  ~PhaseScope() { clock_.Switch(previous_); }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  PhaseClock& clock_;
  Phase previous_;
};

struct SourceRow {
  std::string source;  // scheme://host[:port]
  std::string role;    // origin, mirror, redirect
  uint64_t bytes = 0;  // bytes of attempts that delivered
  uint64_t requests = 0;
  uint64_t retries = 0;  // attempts thrown away
  bool demoted = false;
  std::string demoted_reason;
  metrics::Histogram latency_ns;  // per GET: request start to last byte
};

// Rows by source, in the order they were first named.
class SourceLedger {
 public:
  SourceRow& Row(const std::string& source, const std::string& role);
  const std::vector<SourceRow>& rows() const { return rows_; }

 private:
  std::vector<SourceRow> rows_;
};

// Stream time of attempts, for the transfer / wasted split.
struct StreamTime {
  double useful_s = 0;
  double wasted_s = 0;
  uint64_t wasted_bytes = 0;
  uint64_t retries = 0;
};

struct ObjectResult {
  std::string name;
  uint64_t size = 0;
  uint64_t fetched_bytes = 0;                // this run
  uint64_t resumed_bytes = 0;                // journaled by an earlier run, not fetched again
  std::string checksum;                      // "sha-256 (--sha256)", "md5 (S3 ETag)", "none"
  std::string status;                        // staged, present, failed, interrupted, extracted
  std::vector<std::string> repaired_ranges;  // "a-b" byte ranges replaced after a mismatch
};

struct StageAccount {
  std::string command = "stage";  // or "train": a job that staged, then trained
  std::string source, dest, start_utc, end_utc;
  bool complete = false;
  std::string stop_reason;
  unsigned streams = 0;
  uint64_t chunk_size = 0;
  bool extract = false;
  uint64_t bytes = 0;          // fetched this run (attempts that delivered)
  uint64_t resumed_bytes = 0;  // not fetched again thanks to the journal
  uint64_t total_bytes = 0;    // of every object staged
  double wall_s = 0, transfer_s = 0, retry_wasted_s = 0, verify_s = 0, extract_s = 0;
  double compute_s = 0;  // training after the stage (`train --stage-to`); part of wall_s
  uint64_t retry_wasted_bytes = 0, retries = 0;
  std::vector<ObjectResult> objects;
  std::vector<SourceRow> sources;

  // Fills the shares from the phase clock and the stream time (see the file comment).
  void SetShares(const PhaseClock& clock, const StreamTime& stream_time);
  // Adds `seconds` of computing after the stage to compute_s and wall_s.
  void AddCompute(double seconds);
};

nlohmann::ordered_json ToJson(const StageAccount& account);
// The final stdout line's object: {"trainbench_stage": {...}}.
nlohmann::ordered_json FinalLine(const StageAccount& account);
// The table printed on stdout (with a compute row for a train job).
std::string FormatTable(const StageAccount& account);

}  // namespace trainbench::stage
