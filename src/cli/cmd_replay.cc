// `trainbench replay OPLOG`: the flags of app's ReplayJob (an op-log played against storage,
// then compared with the original) and its table and final line on stdout.

#include "app/frame/binary_job.h"
#include "app/replay/replay_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"
#include "common/strings.h"

namespace trainbench::cli {
namespace {

struct ReplayFlags {
  app::ReplayOptions job;
  std::string ops;  // GET,PUT
  std::vector<std::string> s3_options;
  std::string output;
};

int Replay(ReplayFlags& flags) {
  auto job = flags.job;
  if (!flags.ops.empty()) job.ops = Split(flags.ops, ',');
  job.storage_options = ParseS3Options(flags.s3_options);
  app::BinaryJob binary(flags.output, "replay.log", "--output");
  return ShowJobReport(app::ReplayJob(job, binary.env()));
}

}  // namespace

void AddReplayCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "replay",
      "Play an op-log (run --op-log's, or sai3-bench's) against storage and compare it with "
      "the original");
  command->footer(
      "Examples:\n"
      "  trainbench replay ops.tsv.zst                         # parallel, same storage\n"
      "  trainbench replay ops.tsv.zst --mode timed --speed 2  # at twice the original pace\n"
      "  trainbench replay ops.tsv.zst --target s3://bucket/copy\n"
      "  mpirun -np 4 trainbench replay ops.tsv.zst            # rank r: ops.rank000r.tsv.zst\n"
      "A GET reads the logged bytes from the object's start; PUTs go only to an empty --target. "
      "stdout: original against replay per operation, then {\"trainbench_replay\": {...}}. Exit "
      "1 when an operation failed. More: docs/commands.md");
  static ReplayFlags flags;
  auto& j = flags.job;
  command->add_option("OPLOG", j.op_log, "The op-log (.tsv or .tsv.zst)")->required();
  command->add_option("--target", j.target,
                      "Replay against this folder or s3://bucket/prefix, not the log's endpoint");
  command->option_defaults()->always_capture_default();
  command->add_option("--mode", j.mode, "sequential, parallel, or timed (at the original times)");
  command->add_option("--speed", j.speed, "With --mode timed: this many times faster");
  command->option_defaults()->always_capture_default(false);
  command->add_option("--ops", flags.ops, "Only these operations, e.g. GET,HEAD (default: all)")
      ->allow_extra_args(false);
  command
      ->add_option("--concurrency", j.concurrency,
                   "Workers (default: the most operations the original had in flight at "
                   "once, at least its threads, at most 64)")
      ->check(Between(1, app::kMaxReplayConcurrency));
  AddOpLogFlag(*command, j.own_op_log, "the replay's own operations");
  command->add_option("--train-results", j.train_results,
                      "Results of the `train --op-log` that wrote OPLOG: what its steps would "
                      "lose to I/O on this storage");
  AddS3OptionFlag(*command, flags.s3_options, "an s3:// target or endpoint");
  AddOutputFlag(*command, flags.output, "in <DIR>/replay-<UTC stamp>/ (default: none)");
  AddIntervalFlag(*command, j.interval_s, "MB/s and operations");
  AddNoProgressFlag(*command, j.progress);
  command->callback(
      [&action] { action = [] { return WithS3OptionFlag([] { return Replay(flags); }); }; });
}

}  // namespace trainbench::cli
