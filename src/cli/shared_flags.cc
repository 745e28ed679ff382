#include "cli/shared_flags.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "app/workload_load.h"
#include "common/error.h"

namespace trainbench::cli {
namespace {

CLI::Validator Integer(int64_t min, int64_t max) {
  const bool bounded = max != std::numeric_limits<int64_t>::max();
  return CLI::Validator(
      [min, max, bounded](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (!text.empty() && *end == '\0' && errno != ERANGE && value >= min && value <= max)
          return {};
        return bounded ? fmt::format("'{}': expected an integer from {} to {}", text, min, max)
                       : fmt::format("'{}': expected an integer of at least {}", text, min);
      },
      bounded ? fmt::format("INT in [{}, {}]", min, max) : fmt::format("INT>={}", min));
}

CLI::Validator Finite(bool allow_zero) {
  return CLI::Validator(
      [allow_zero](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (!text.empty() && *end == '\0' && std::isfinite(value) &&
            (allow_zero ? value >= 0 : value > 0))
          return {};
        return "'" + text + "': expected a finite number " +
               (allow_zero ? "of at least 0" : "above 0");
      },
      allow_zero ? "NUMBER>=0" : "NUMBER>0");
}

}  // namespace

CLI::Validator AtLeast(int64_t min) { return Integer(min, std::numeric_limits<int64_t>::max()); }
CLI::Validator Between(int64_t min, int64_t max) { return Integer(min, max); }
CLI::Validator PositiveFinite() { return Finite(false); }
CLI::Validator NonNegativeFinite() { return Finite(true); }

void AddWorkloadArgs(CLI::App& command, WorkloadArgs& args, bool required) {
  command
      .add_option("workload", args.workload,
                  "Built-in workload name (see `trainbench workloads`) or a DLIO YAML file "
                  "(`run` also takes a sai3-bench config: docs/sai3-bench.md)")
      ->required(required);
  command.add_option("overrides", args.overrides,
                     "Config overrides: dataset.num_files_train=16 or DLIO's "
                     "++workload.dataset.num_files_train=16");
  command.add_flag("--no-warnings", args.quiet_warnings,
                   "Do not print warnings about DLIO keys trainbench ignores");
}

config::WorkloadConfig LoadWorkloadOrThrow(const WorkloadArgs& args) {
  return app::LoadCheckedWorkload(args.workload, args.overrides, args.quiet_warnings);
}

void AddRunFlags(CLI::App& command, RunFlags& flags, bool with_accelerators) {
  AddWorkloadArgs(command, flags.workload);
  if (with_accelerators)
    command
        .add_option("--accelerators,-a", flags.job.accelerators,
                    "Emulated accelerators in this process (default 1; under mpirun per rank)")
        ->check(AtLeast(1));
  command.add_flag("--no-barrier", flags.no_barrier,
                   "Accelerators run their steps independently (no all-reduce barrier)");
  std::string engines = "How reads are done (fio's ioengine; default: the storage's own):";
  std::vector<std::string> names;
  for (const auto& e : app::KnownReadEngines()) {
    engines += fmt::format("\n  {:7} {}", e.name, e.help);
    names.push_back(e.name);
  }
  command.add_option("--io-engine", flags.job.reads.engine, engines)->check(CLI::IsMember(names));
  command
      .add_option("--io-threads", flags.job.reads.io_threads,
                  "Reader loops, each with its own queue (default: from the workload)")
      ->check(Between(0, 1024));
  command
      .add_option("--io-depth", flags.job.reads.io_depth,
                  "Reads in flight per loop (default: 1 for pread, else from the workload)")
      ->check(Between(0, 1024));
  AddNoProgressFlag(command, flags.job.progress);
  AddIntervalFlag(command, flags.job.interval_s,
                  "samples/s, MB/s, read latency p50/p99, data wait, CPU, memory");
  command.add_flag("--drop-caches", flags.job.drop_caches,
                   "Empty every host's page cache before the run (root; one rank per host)");
}

app::RunJobOptions ResolveRunFlags(RunFlags& flags) {
  auto job = flags.job;
  job.barrier = !flags.no_barrier;
  app::CheckRunOptions(job);  // before the config: a bad flag is named first
  job.config = LoadWorkloadOrThrow(flags.workload);
  job.datagen_command =
      app::TrainbenchCommand("datagen", flags.workload.workload, flags.workload.overrides);
  return job;
}

void AddOutputFlag(CLI::App& command, std::string& folder, const std::string& where) {
  command.add_option("--output", folder,
                     "Keep the job's results (summary.json, timeseries.csv) " + where);
}

void AddIntervalFlag(CLI::App& command, double& seconds, const std::string& columns) {
  command
      .add_option("--interval", seconds,
                  "Seconds per row of timeseries.csv (" + columns + "; default 1; 0: none)")
      ->check(NonNegativeFinite());
}

void AddNoProgressFlag(CLI::App& command, bool& progress) {
  command.add_flag("!--no-progress", progress,
                   "No live progress on stderr (the job's own lines and results are printed as "
                   "ever)");
}

void AddOpLogFlag(CLI::App& command, std::string& path, const std::string& what, bool per_rank) {
  command.add_option(
      "--op-log", path,
      "Record " + what +
          " in FILE, a line per operation in sai3-bench's op-log columns "
          "(FILE.tsv.zst: zstd)" +
          (per_rank ? "; under mpirun a file per rank (FILE.rankNNNN.tsv.zst)" : ""));
}

void AddS3OptionFlag(CLI::App& command, std::vector<std::string>& pairs, const std::string& what) {
  // One KEY=VALUE per --s3-option: without the limit a vector option takes every argument
  // after it, a sai3-bench config's overrides and replay's OPLOG included.
  command
      .add_option("--s3-option", pairs,
                  "KEY=VALUE of storage_options for " + what +
                      " (endpoint_url, region, s3_force_path_style, ...; repeatable)")
      ->allow_extra_args(false);
}

std::map<std::string, std::string> ParseS3Options(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> options;
  for (const auto& kv : pairs) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(
          fmt::format("--s3-option '{}': give KEY=VALUE (storage_options keys, "
                      "e.g. endpoint_url=http://127.0.0.1:7480)",
                      kv));
    options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return options;
}

}  // namespace trainbench::cli
