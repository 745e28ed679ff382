// `trainbench replay OPLOG...`: the flags of app's ReplayJob (an op-log played against storage,
// then compared with the original) and its table and final line on stdout.

#include <fmt/format.h>

#include "app/frame/binary_job.h"
#include "app/replay/replay_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"
#include "common/error.h"
#include "common/strings.h"

namespace trainbench::cli {
namespace {

struct ReplayFlags {
  app::ReplayOptions job;
  std::string ops;  // GET,PUT
  std::vector<std::string> s3_options;
  std::vector<std::string> job_targets;  // JOB=URI
  std::string output;
};

int Replay(ReplayFlags& flags) {
  auto job = flags.job;
  if (!flags.ops.empty()) job.ops = Split(flags.ops, ',');
  job.storage_options = ParseS3Options(flags.s3_options);
  for (const auto& given : flags.job_targets) {
    const auto eq = given.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == given.size())
      throw UsageError(fmt::format(
          "--job-target {}: give JOB=URI (the job of a mix whose op-log replays there)", given));
    if (!job.job_targets.emplace(given.substr(0, eq), given.substr(eq + 1)).second)
      throw UsageError(fmt::format("--job-target: job {} is given twice", given.substr(0, eq)));
  }
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
      "  trainbench replay ops.big.tsv ops.ck.tsv --mode timed --job-target ck=/tmp/ckcopy\n"
      "                                                        # a mix's jobs, together\n"
      "  mpirun -np 4 trainbench replay ops.tsv.zst            # rank r: ops.rank000r.tsv.zst\n"
      "A GET reads the logged bytes from the object's start; PUTs go only to an empty --target. "
      "stdout: original against replay per operation, then {\"trainbench_replay\": {...}}. Exit "
      "1 when an operation failed. More: docs/commands.md");
  static ReplayFlags flags;
  auto& j = flags.job;
  command
      ->add_option("OPLOG", j.op_logs,
                   "The op-log (.tsv or .tsv.zst); several (a mix's jobs' files) replay together")
      ->required();
  command->add_option("--target", j.target,
                      "Replay against this folder or s3://bucket/prefix, not the log's endpoint");
  command->add_option("--job-target", flags.job_targets,
                      "JOB=URI: job JOB's op-log (a mix's) against URI in place of --target, "
                      "e.g. a checkpointing job's PUTs to an empty folder");
  command->option_defaults()->always_capture_default();
  command->add_option("--mode", j.mode, "sequential, parallel, or timed (at the original times)");
  command->add_option("--speed", j.speed, "With --mode timed: this many times faster");
  command->option_defaults()->always_capture_default(false);
  command->add_option("--ops", flags.ops, "Only these operations, e.g. GET,HEAD (default: all)")
      ->allow_extra_args(false);
  command
      ->add_option("--concurrency", j.concurrency,
                   "Workers, per op-log (default: the most operations its original had in "
                   "flight at once, at least its threads, at most 64)")
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
