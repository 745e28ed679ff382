#include "cli/run_flags.h"

#include <fmt/format.h>

#include <string>
#include <vector>

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
                    "Emulated accelerators in this process (default 1); under mpirun, per rank "
                    "(ranks may differ: set it per host with mpirun's MPMD form)")
        ->check(AtLeast(1));
  command.add_flag("--no-barrier", flags.no_barrier,
                   "Let accelerators run their steps independently (no all-reduce barrier)");
  std::string engines = "How reads are done (fio's ioengine):";
  std::vector<std::string> names;
  for (const auto& e : app::KnownReadEngines()) {
    engines += fmt::format("\n  {:7} {}", e.name, e.help);
    names.push_back(e.name);
  }
  engines += "\n(default: the storage's own, pread on a file system; hdf5 reads through libhdf5)";
  command.add_option("--io-engine", flags.job.reads.engine, engines)->check(CLI::IsMember(names));
  command
      .add_option("--io-threads", flags.job.reads.io_threads,
                  "Reader loops, each with its own queue (default: accelerators x "
                  "read_threads, at most 4 per core for pread, 1 per core for deeper engines; "
                  "at most 1024)")
      ->check(Between(0, 1024));
  command
      .add_option("--io-depth", flags.job.reads.io_depth,
                  "Reads in flight per reader loop (default: 1 for pread; for uring and "
                  "null, accelerators x read_threads / loops, at most 256; at most 1024, and "
                  "--io-threads x --io-depth at most 4096)")
      ->check(Between(0, 1024));
  command.add_flag("--no-progress", flags.no_progress,
                   "No live progress (a block redrawn on a terminal, else a line every 10 "
                   "intervals)");
  command
      .add_option("--interval", flags.job.interval_s,
                  "Seconds per row of timeseries.csv in the results (samples/s, MB/s, read "
                  "latency p50/p99, data wait, CPU, memory per interval; default 1; 0: none)")
      ->check(NonNegativeFinite());
  command.add_flag("--drop-caches", flags.job.drop_caches,
                   "Empty the page cache of every host before the run (root only; one rank "
                   "per host does it), so reads come from storage");
}

app::RunJobOptions ResolveRunFlags(RunFlags& flags) {
  auto job = flags.job;
  job.barrier = !flags.no_barrier;
  job.progress = !flags.no_progress;
  app::CheckRunOptions(job);  // before the config: a bad flag is named first
  job.config = LoadWorkloadOrThrow(flags.workload);
  job.datagen_command = DatagenCommand(flags.workload);
  return job;
}

}  // namespace trainbench::cli
