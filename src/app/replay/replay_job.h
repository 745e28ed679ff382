// `trainbench replay`'s job: plays an op-log (trainbench's or sai3-bench's) against storage,
// one after another (sequential), as fast as `concurrency` workers go (parallel), or each
// operation at its original time over `speed` (timed), against the log's own endpoint or a
// --target in its place; then compares each kind of operation with the original (count,
// bytes, latency percentiles, span). Under mpirun each rank replays its own rank's file
// (ops.rank0001.tsv.zst for --op-log ops.tsv.zst) and rank 0 sums them. Refuses, before any
// work: an op-log that is not one, options out of range, and a log with PUTs or DELETEs
// unless --target names an empty place (replayed writes never land on data trainbench did
// not write). Several op-logs (a mix's jobs' files, `mix --op-log`) replay together, each on
// its own workers from one start (timed: each operation at its original time relative to every
// log's), and each is compared with its own original as well as all of them together. Not
// thread-safe: one per process.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/frame/job_env.h"
#include "app/frame/job_results.h"
#include "app/frame/job_timeseries.h"

namespace trainbench::app {

struct ReplayOptions {
  // As given (one or more: replayed together); under mpirun each rank reads its rank's file of
  // each.
  std::vector<std::string> op_logs;
  std::string target;  // "": each operation's own endpoint
  // --job-target JOB=URI: the op-log of a mix's job JOB against URI in place of --target
  // (a checkpointing job's PUTs to an empty place, the trainings' reads where they were).
  std::map<std::string, std::string> job_targets;
  std::map<std::string, std::string> storage_options;
  std::string mode = "parallel";  // sequential | parallel | timed
  double speed = 1;               // timed: original offsets over this
  std::vector<std::string> ops;   // kinds to replay; empty: all
  // Per op-log; 0: as many as its original had operations in flight (at most 64).
  unsigned concurrency = 0;
  // This replay's own op-log ("": none); with several op-logs, one file per job
  // (ops.<job>.tsv, as `mix --op-log` names them).
  std::string own_op_log;
  bool progress = true;
  double interval_s = 1;  // per timeseries.csv row with a results folder; 0: none
  // The results of the `train` whose op-log this is (ops/step_io_estimate.h): the replay then
  // says what that training's steps would lose to I/O against the replay's storage. "": none.
  std::string train_results;
};

// text: the comparison table; line: {"trainbench_replay": {...}, "trainbench": {...}};
// exit_code 1 when an operation failed, 130 when the replay was interrupted.
using ReplayOutcome = JobReport;

// Throws UsageError before any work for what it refuses (see above).
ReplayOutcome ReplayJob(const ReplayOptions& options, JobEnv& env);

inline constexpr unsigned kMaxReplayConcurrency = 4096;

}  // namespace trainbench::app
