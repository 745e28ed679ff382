// The flags several commands share, said one way everywhere, and the checks of their values.
// Each Add* takes the part of the help that is the command's own.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "app/run/run_job.h"
#include "config/workload.h"

namespace trainbench::cli {

// Validators with plain messages: CLI11's PositiveNumber prints its range as two 300-digit
// numbers and lets `nan` through, and an unsigned flag silently wraps "-5" to
// 18446744073709551611. Each parses the text itself, before the value is stored.
CLI::Validator AtLeast(int64_t min);               // a count, a seed
CLI::Validator Between(int64_t min, int64_t max);  // a count that costs a thread each
CLI::Validator PositiveFinite();                   // a rate, a size, seconds
CLI::Validator NonNegativeFinite();                // a coefficient

// The "WORKLOAD [key=value ...]" of datagen, config, run, datasize, clean and sweep, loaded
// with its warnings printed once, on stderr. `config --keys` needs no WORKLOAD.
struct WorkloadArgs {
  std::string workload;
  std::vector<std::string> overrides;
  bool quiet_warnings = false;
};
void AddWorkloadArgs(CLI::App& command, WorkloadArgs& args, bool required = true);
config::WorkloadConfig LoadWorkloadOrThrow(const WorkloadArgs& args);

// `run`'s and `sweep`'s: the workload and how reads are done (engine, threads, depth,
// barrier, caches, time series); --accelerators too when `with_accelerators`.
struct RunFlags {
  WorkloadArgs workload;
  app::RunJobOptions job;
  bool no_barrier = false;
};
void AddRunFlags(CLI::App& command, RunFlags& flags, bool with_accelerators = true);
// The job's options: checked (UsageError naming the flag), the workload loaded.
app::RunJobOptions ResolveRunFlags(RunFlags& flags);

// --output DIR: `where` says the folder's name and its default.
void AddOutputFlag(CLI::App& command, std::string& folder, const std::string& where);
// --interval SECONDS per row of timeseries.csv; `columns` says what a row holds.
void AddIntervalFlag(CLI::App& command, double& seconds, const std::string& columns);
// --no-progress, which sets `progress` false.
void AddNoProgressFlag(CLI::App& command, bool& progress);
// --op-log FILE recording `what` ("every read"), in sai3-bench's columns; a file per rank
// under mpirun when `per_rank`.
void AddOpLogFlag(CLI::App& command, std::string& path, const std::string& what,
                  bool per_rank = true);
// --s3-option KEY=VALUE (repeatable) for `what` ("an s3:// SOURCE"), and its parse (a
// UsageError names a malformed one).
void AddS3OptionFlag(CLI::App& command, std::vector<std::string>& pairs, const std::string& what);
std::map<std::string, std::string> ParseS3Options(const std::vector<std::string>& pairs);

}  // namespace trainbench::cli
