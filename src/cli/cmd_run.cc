// `trainbench run WORKLOAD [overrides]`: the flags of app's RunJob (emulated training over
// the workload's dataset, MLPerf-Storage style, or a checkpointing workload) and the console's
// share of its results: the table and the final JSON line on stdout.
#include <fmt/format.h>

#include <cstdio>

#include "app/job_env.h"
#include "app/run_job.h"
#include "cli/command.h"
#include "cli/run_flags.h"
#include "common/log.h"
#include "report/result_envelope.h"
#include "report/summary.h"
#include "report/tables.h"

namespace trainbench::cli {
namespace {

void Show(const app::RunOutcome& run) {
  fmt::print("{}{}", report::ConsoleTable(run.record, run.config), run.rules_table);
  fmt::print("results: {}\n", run.folder);
  // The kind's figures first, as before the envelope, so a reader matching the line's start
  // still finds it.
  nlohmann::ordered_json line = report::MetricsLine(run.record, run.config);
  line["trainbench"] = report::LineEnvelope(run.envelope, run.folder);
  fmt::print("{}\n", line.dump());
  std::fflush(stdout);
}

int Execute(RunFlags& flags) {
  const app::RunJobOptions job = ResolveRunFlags(flags);
  app::FolderResults results(job.config.output.folder, job.config.output.log_file);
  auto env = app::BinaryJobEnv(&results);
  env.show = Show;
  return app::RunJob(job, env);
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
      "Results: <output.folder>/<workload>-<UTC time>/ (config.yaml, summary.json, epochs.csv, "
      "log);\nthe last stdout line is {\"trainbench_metrics\": {...}}. Ctrl-C stops and keeps "
      "partial results.");
  static RunFlags flags;
  AddRunFlags(*command, flags);
  command->add_option("--op-log", flags.job.op_log,
                      "Record every read (and checkpoint write and read) in FILE, one line per "
                      "operation in sai3-bench's op-log columns (FILE.tsv.zst: "
                      "zstd-compressed); under mpirun one file per rank "
                      "(FILE.rankNNNN.tsv.zst)");
  command->callback([&action] { action = [] { return Execute(flags); }; });
}

}  // namespace trainbench::cli
