// `trainbench replay OPLOG`: the flags of app's ReplayJob (an op-log played against storage,
// then compared with the original) and its table and final line on stdout.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "app/job_env.h"
#include "app/replay_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/validators.h"
#include "common/error.h"
#include "common/output_path.h"
#include "common/strings.h"

namespace trainbench::cli {
namespace {

struct ReplayFlags {
  app::ReplayOptions job;
  std::string ops;  // GET,PUT
  std::vector<std::string> s3_options;
  std::string output;
  bool no_progress = false;
};

int Replay(ReplayFlags& flags) {
  auto job = flags.job;
  job.progress = !flags.no_progress;
  if (!flags.ops.empty()) job.ops = Split(flags.ops, ',');
  job.storage_options = ParseS3Options(flags.s3_options);
  std::unique_ptr<app::FolderResults> results;
  if (!flags.output.empty()) {
    CheckWritableFolder(flags.output, "--output");
    results = std::make_unique<app::FolderResults>(flags.output, "replay.log");
  }
  auto env = app::BinaryJobEnv(results.get());
  const app::ReplayOutcome outcome = app::ReplayJob(job, env);
  if (!outcome.reports) return 0;
  ShowJobEnd(outcome.text, outcome.results, outcome.line, "the replay ran");
  return outcome.failed ? 1 : 0;
}

}  // namespace

void AddReplayCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "replay",
      "Play an op-log (run --op-log's, or sai3-bench's) against storage and compare it with "
      "the original");
  command->footer(
      "Examples:\n"
      "  trainbench run resnet50_h100 ... --op-log ops.tsv.zst\n"
      "  trainbench replay ops.tsv.zst                         # parallel, same storage\n"
      "  trainbench replay ops.tsv.zst --mode timed --speed 2  # at twice the original pace\n"
      "  trainbench replay ops.tsv.zst --target s3://bucket/copy --s3-option "
      "endpoint_url=http://127.0.0.1:7480\n"
      "  mpirun -np 4 trainbench replay ops.tsv.zst            # rank r replays "
      "ops.rank000r.tsv.zst\n"
      "A replayed GET reads the logged bytes from the object's start (the columns carry no "
      "offset); PUTs write random data, only to an empty --target; a DELETE removes only what "
      "the replay PUT.\n"
      "stdout: a table (each operation's count, bytes, ops/s, p50 and p99 latency, original "
      "against replay), then {\"trainbench_replay\": {...}, \"trainbench\": {...}}.\n"
      "Exit 1 when an operation failed or the replay was interrupted.");
  static ReplayFlags flags;
  auto& j = flags.job;
  command
      ->add_option("OPLOG", j.op_log,
                   "The op-log (.tsv or .tsv.zst; under mpirun, the name "
                   "the ranks' files were written under)")
      ->required();
  command->add_option("--target", j.target,
                      "Replay against this folder or s3://bucket/prefix instead of the log's "
                      "endpoint (the objects' names relative to it)");
  command->add_option("--mode", j.mode,
                      "sequential (one at a time), parallel (as fast as the workers go) or timed "
                      "(each at its original time) (default parallel)");
  command->add_option("--speed", j.speed,
                      "With --mode timed: replay this many times faster (2: in half the time; "
                      "default 1)");
  command->add_option("--ops", flags.ops,
                      "Replay only these operations, e.g. GET or GET,HEAD (default: all)");
  command
      ->add_option("--concurrency", j.concurrency,
                   "Workers (default: as many threads as the original had, at most 64)")
      ->check(Between(1, app::kMaxReplayConcurrency));
  command->add_option("--op-log", j.own_op_log, "Record the replay's own operations in FILE");
  command->add_option("--train-results", j.train_results,
                      "The results folder (or summary.json) of the `train --op-log` that wrote "
                      "OPLOG: say what its steps would lose to I/O against this storage (the "
                      "batch's loading at the replayed rate against the step's compute; "
                      "--mode parallel)");
  command->add_option("--s3-option", flags.s3_options,
                      "KEY=VALUE of storage_options for an s3:// target or endpoint "
                      "(endpoint_url, region, ...; repeatable)");
  command->add_option("--output", flags.output,
                      "Keep summary.json, timeseries.csv and the log in <DIR>/replay-<UTC stamp>/ "
                      "(default: none)");
  command
      ->add_option("--interval", j.interval_s,
                   "Seconds per row of timeseries.csv with --output (MB/s and operations per "
                   "interval; default 1; 0: none)")
      ->check(NonNegativeFinite());
  command->add_flag("--no-progress", flags.no_progress, "No progress line");
  command->callback([&action] { action = [] { return Replay(flags); }; });
}

}  // namespace trainbench::cli
