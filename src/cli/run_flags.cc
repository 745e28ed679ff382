#include "cli/run_flags.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "cli/job_flags.h"
#include "cli/validators.h"

namespace trainbench::cli {
namespace {

std::string ShellQuote(const std::string& s) {
  if (s.find_first_of(" '\"$`\\*?&;|<>()") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string DatagenCommand(const WorkloadArgs& args) {
  std::string cmd = "trainbench datagen " + ShellQuote(args.workload);
  for (const auto& o : args.overrides) cmd += " " + ShellQuote(o);
  return cmd;
}

}  // namespace

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
  job.datagen_command = DatagenCommand(flags.workload);
  return job;
}

}  // namespace trainbench::cli
