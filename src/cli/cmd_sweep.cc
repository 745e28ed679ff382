// `trainbench sweep WORKLOAD --find-max-accelerators`: the flags of app's SweepJob (how many
// accelerators this storage feeds at the workload's AU target) and its answer on stdout.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "app/grid_sweep_job.h"
#include "app/job_env.h"
#include "app/sweep_job.h"
#include "cli/command.h"
#include "cli/run_flags.h"
#include "cli/validators.h"
#include "common/error.h"
#include "common/strings.h"

namespace trainbench::cli {
namespace {

struct SweepFlags {
  RunFlags run;
  std::string accelerators;  // a grid axis: 8,16,32
  bool find_max = false;
  uint64_t lowest = 1, highest = 1024;
  uint64_t probe_steps = 0;
};

int Grid(SweepFlags& flags) {
  app::GridSweepOptions options;
  options.axes = app::TakeGridAxes(flags.run.workload.overrides);
  if (!flags.accelerators.empty())
    options.axes.insert(options.axes.begin(), {"accelerators", Split(flags.accelerators, ',')});
  options.run = ResolveRunFlags(flags.run);
  options.output = options.run.config.output.folder;
  auto env = app::BinaryJobEnv(nullptr);
  const app::GridSweepOutcome outcome = app::GridSweepJob(options, env);
  if (!outcome.reports) return 0;
  std::string head;
  for (const auto& axis : options.axes) head += fmt::format("{:>16} ", axis.key);
  fmt::print("{}    AU %  samples/s      MB/s  verdict\n", head);
  for (const auto& p : outcome.points) {
    std::string row;
    for (const auto& v : p.values) row += fmt::format("{:>16} ", v);
    fmt::print("{}{:>7.2f} {:>10.1f} {:>9.1f}  {}{}\n", row, p.run.au_percentage,
               p.run.samples_per_second, p.run.mb_per_second,
               !p.run.au_meaningful ? "no verdict"
               : p.run.passed       ? "pass"
                                    : "FAIL",
               p.resumed ? " (earlier)" : "");
  }
  if (!outcome.results.folder.empty()) fmt::print("results: {}\n", outcome.results.folder);
  fmt::print("{}\n", outcome.line);
  std::fflush(stdout);
  if (!outcome.results.error.empty())
    throw RuntimeError("the sweep's results could not be written: " + outcome.results.error);
  if (outcome.interrupted) return static_cast<int>(ExitCode::kInterrupted);
  if (!outcome.stop_reason.empty()) throw RuntimeError(outcome.stop_reason);
  return 0;
}

int Sweep(SweepFlags& flags) {
  if (!flags.find_max) return Grid(flags);
  if (!flags.accelerators.empty())
    throw UsageError("--find-max-accelerators finds the count: drop --accelerators");
  app::SweepOptions options;
  options.run = ResolveRunFlags(flags.run);
  options.lowest = flags.lowest;
  options.highest = flags.highest;
  options.probe_steps = flags.probe_steps;
  const auto& output = options.run.config.output;
  app::FolderResults results(output.folder, "sweep.log");
  auto env = app::BinaryJobEnv(&results);
  const auto log_file = output.log_file;
  const app::SweepOutcome outcome =
      app::SweepJob(options, env, [&log_file](const std::string& folder) {
        return std::make_unique<app::FolderResults>(folder, log_file);
      });
  if (!outcome.reports) return 0;
  fmt::print("accelerators  run          AU %      MB/s  asked MB/s  verdict\n");
  for (const auto& p : outcome.probes)
    fmt::print("{:>12}  {:<11} {:>6.2f} {:>9.1f} {:>11.1f}  {}\n", p.accelerators,
               p.full ? "full-length" : "probe", p.au_percentage, p.mb_per_second,
               p.demand_mb_per_second,
               !p.au_meaningful ? "no verdict"
               : p.passed       ? "pass"
                                : "FAIL");
  fmt::print("{}\n", outcome.sentence);
  if (const auto it = outcome.figures.find("official"); it != outcome.figures.end()) {
    const auto& o = *it;
    fmt::print(
        "Confirm it with MLPerf Storage's tools (its rule sizes the dataset for {} accelerators "
        "at {} files, {:.1f} GB):\n  {}\n  {}\n  {}\nor DLIO alone:\n  {}\n",
        outcome.search.answer, o["dataset_files"].get<uint64_t>(), o["dataset_GB"].get<double>(),
        o["mlpstorage_datasize"].get<std::string>(), o["mlpstorage_datagen"].get<std::string>(),
        o["mlpstorage_run"].get<std::string>(), o["dlio"].get<std::string>());
  }
  if (!outcome.results.folder.empty()) fmt::print("results: {}\n", outcome.results.folder);
  fmt::print("{}\n", outcome.line);
  std::fflush(stdout);
  if (!outcome.results.error.empty())
    throw RuntimeError("the sweep's results could not be written: " + outcome.results.error);
  return outcome.search.stopped ? static_cast<int>(ExitCode::kRuntime) : 0;
}

}  // namespace

void AddSweepCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "sweep",
      "How many accelerators this storage feeds (--find-max-accelerators: the largest count at "
      "the workload's AU target), or a grid of runs over swept keys (key=v1,v2,...)");
  command->footer(
      "Examples:\n"
      "  trainbench sweep resnet50_h100 --find-max-accelerators dataset.data_folder=/mnt/fs/r50\n"
      "  trainbench sweep unet3d_h100 --find-max-accelerators --min 4 --max 64\n"
      "  mpirun -np 4 --hostfile hosts trainbench sweep resnet50_h100 --find-max-accelerators\n"
      "  trainbench sweep resnet50_h100 reader.read_threads=1,2,4,8 --accelerators 8,16,32\n"
      "Counts grow x2 from --min until a probe fails, then the last pass and the first failure "
      "are bisected; each probe is a run of --probe-steps steps (default: twice what an AU "
      "verdict needs, at least 20), and full-length runs at N* (pass) and N*+1 (fail) confirm "
      "the answer. Under mpirun a count is split over the ranks.\n"
      "A grid (KEY=V1,V2,... overrides, --accelerators A,B,...) runs every combination, one run "
      "per point in <output.folder>/sweep-<workload>-grid-<id>/points/, journaled as each "
      "ends: the same command again runs only the points not done.\n"
      "Results: <output.folder>/sweep-<workload>-<UTC time>/ (summary.json, probes.csv, and "
      "each probe's run results in probes/); the last stdout line is {\"trainbench_sweep\": "
      "{...}, \"trainbench\": {...}}.");
  static SweepFlags flags;
  AddRunFlags(*command, flags.run, /*with_accelerators=*/false);
  command->add_option("--accelerators,-a", flags.accelerators,
                      "A grid axis of accelerator counts (8,16,32), split over the ranks");
  command->add_flag("--find-max-accelerators", flags.find_max,
                    "Find the largest accelerator count at the workload's AU target (metric.au)");
  command->add_option("--min", flags.lowest, "The smallest count tried (default 1)")
      ->check(AtLeast(1));
  command->add_option("--max", flags.highest, "The largest count tried (default 1024)")
      ->check(AtLeast(1));
  command
      ->add_option("--probe-steps", flags.probe_steps,
                   "Steps per probe (train.total_training_steps; default: twice what an AU "
                   "verdict needs, at least 20)")
      ->check(AtLeast(1));
  command->callback([&action] { action = [] { return Sweep(flags); }; });
}

}  // namespace trainbench::cli
