// `trainbench run CONFIG.yaml` for a sai3-bench config (config/sai3/sai3_config.h): prepare (each
// rank its 1/N of every ensure_objects set, ops/sai3_prepare.h), then the weighted op mix for
// `duration` with `concurrency` workers per rank through storage/ (ops/op_mix.h on the
// replay's workers), then cleanup when asked. Rank 0 sums the ranks: per op count, bytes,
// ops/s, MiB/s, latency percentiles (and time to first byte where the storage measures it);
// results kind "sai3": summary.json, timeseries.csv every perf_log.interval, the log.
// Refuses (UsageError) before any work what it cannot do. Not thread-safe: one per process.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/frame/job_env.h"
#include "app/frame/job_results.h"
#include "config/sai3/sai3_config.h"

namespace trainbench::app {

struct Sai3Options {
  config::Sai3Config config;
  std::map<std::string, std::string> storage_options;  // --s3-option
  std::string op_log;      // --op-log ("": the config's op_log_path, if any)
  double interval_s = -1;  // --interval (-1: perf_log.interval; 0: none)
  bool progress = true;
};

// text: the table; line: {"trainbench_sai3": {...}, "trainbench": {...}}; exit_code 1 when
// an operation failed, 130 when the job was interrupted.
using Sai3Outcome = JobReport;

Sai3Outcome Sai3Job(const Sai3Options& options, JobEnv& env);

// The binary's run of the sai3-bench config at `path`: loaded with `overrides` (its warnings
// on stderr unless `quiet`) into `options.config`, with the binary's JobEnv and rank 0's
// results under the config's output folder (./results when it names none).
Sai3Outcome RunSai3Config(const std::string& path, const std::vector<std::string>& overrides,
                          bool quiet, Sai3Options options);

}  // namespace trainbench::app
