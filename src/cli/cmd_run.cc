// `trainbench run WORKLOAD [overrides]`: the flags of app's RunJob (emulated training over
// the workload's dataset, MLPerf-Storage style, or a checkpointing workload) and the console's
// share of its results: the table and the final JSON line on stdout.
#include <fmt/format.h>

#include "app/frame/binary_job.h"
#include "app/replay/sai3_job.h"
#include "app/run/run_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"
#include "common/error.h"
#include "config/sai3/sai3_config.h"

namespace trainbench::cli {
namespace {

struct RunOnlyFlags {
  std::vector<std::string> s3_options;
  CLI::App* command = nullptr;
};

// A sai3-bench config (docs/sai3-bench.md): prepare, the op mix for its duration, cleanup.
int ExecuteSai3(RunFlags& flags, const RunOnlyFlags& own) {
  for (const char* flag : {"--accelerators", "--no-barrier", "--io-engine", "--io-threads",
                           "--io-depth", "--drop-caches"})
    if (own.command->count(flag) > 0)
      throw UsageError(fmt::format(
          "{} is a flag of DLIO workloads; {} is a sai3-bench config (its concurrency and "
          "workload say how it reads: override them, e.g. concurrency=8)",
          flag, flags.workload.workload));
  app::Sai3Options job;
  job.storage_options = ParseS3Options(own.s3_options);
  job.op_log = flags.job.op_log;
  if (own.command->count("--interval") > 0) job.interval_s = flags.job.interval_s;
  job.progress = flags.job.progress;
  return ShowJobReport(app::RunSai3Config(flags.workload.workload, flags.workload.overrides,
                                          flags.workload.quiet_warnings, job));
}

int Execute(RunFlags& flags, const RunOnlyFlags& own) {
  if (config::IsSai3Config(flags.workload.workload)) return ExecuteSai3(flags, own);
  if (!own.s3_options.empty())
    throw UsageError(
        "--s3-option is for sai3-bench configs; a DLIO workload sets its storage options as "
        "keys: storage.storage_options.endpoint_url=http://...");
  app::RunJobOptions job = ResolveRunFlags(flags);
  app::BinaryJob binary(job.config.output.folder, job.config.output.log_file);
  const app::RunOutcome run = app::RunJob(job, binary.env());
  const int code = ShowJobReport(run);
  if (run.end_job) app::EndJob(code);  // after the table: the other ranks may wait for rank 0
  return code;
}

}  // namespace

void AddRunCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "run",
      "Emulate training over a workload's dataset (MLPerf Storage style): AU, samples/s, MB/s");
  command->footer(
      "Examples:\n"
      "  trainbench run resnet50_h100 --accelerators 8 dataset.data_folder=/mnt/fs/resnet50\n"
      "  trainbench run my_workload.yaml train.computation_time=0 reader.read_threads=4\n"
      "  mpirun -np 8 --hostfile hosts trainbench run resnet50_h100 -a 4   # 32 accelerators\n"
      "  trainbench run resnet50_1-host.yaml target=file:///mnt/fs/r50/  # a sai3-bench config\n"
      "Results: <output.folder>/<workload>-<UTC time>/; stdout ends with "
      "{\"trainbench_metrics\": {...}}. Ctrl-C keeps partial results. More: docs/commands.md");
  static RunFlags flags;
  static RunOnlyFlags own;
  own.command = command;
  AddRunFlags(*command, flags);
  AddS3OptionFlag(*command, own.s3_options,
                  "a sai3-bench config's s3:// target (DLIO workloads set "
                  "storage.storage_options.KEY=VALUE)");
  AddOpLogFlag(*command, flags.job.op_log, "every read (and checkpoint write and read)");
  command->callback([&action] { action = [] { return Execute(flags, own); }; });
}

}  // namespace trainbench::cli
