// `trainbench sweep WORKLOAD --find-max-accelerators`: the flags of app's SweepJob (how many
// accelerators this storage feeds at the workload's AU target) and its answer on stdout.

#include "app/frame/binary_job.h"
#include "app/sweep/grid_sweep_job.h"
#include "app/sweep/sweep_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"
#include "common/error.h"
#include "common/strings.h"

namespace trainbench::cli {
namespace {

struct SweepFlags {
  RunFlags run;
  std::string accelerators;  // a grid axis: 8,16,32
  bool find_max = false;
  app::SweepOptions search;  // --min, --max, --probe-steps, --confirm
};

int Grid(SweepFlags& flags) {
  app::GridSweepOptions options;
  options.axes = app::TakeGridAxes(flags.run.workload.overrides);
  if (!flags.accelerators.empty())
    options.axes.insert(options.axes.begin(), {"accelerators", Split(flags.accelerators, ',')});
  options.run = ResolveRunFlags(flags.run);
  options.output = options.run.config.output.folder;
  auto env = app::BinaryJobEnv(nullptr);
  return ShowJobReport(app::GridSweepJob(options, env));
}

int Sweep(SweepFlags& flags) {
  if (!flags.find_max) return Grid(flags);
  if (!flags.accelerators.empty())
    throw UsageError("--find-max-accelerators finds the count: drop --accelerators");
  app::SweepOptions options = flags.search;
  options.run = ResolveRunFlags(flags.run);
  return ShowJobReport(app::SweepJob(options));
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
      "  mpirun -np 4 --hostfile hosts trainbench sweep unet3d_h100 --find-max-accelerators\n"
      "  trainbench sweep resnet50_h100 reader.read_threads=1,2,4,8 --accelerators 8,16,32\n"
      "The search doubles the count until a short probe fails, bisects, and confirms with "
      "full-length runs; a grid runs every combination and resumes where it stopped. Results: "
      "<output.folder>/sweep-<workload>-.../; stdout ends with {\"trainbench_sweep\": {...}}. "
      "More: docs/commands.md");
  static SweepFlags flags;
  AddRunFlags(*command, flags.run, /*with_accelerators=*/false);
  command->add_option("--accelerators,-a", flags.accelerators,
                      "A grid axis of accelerator counts (8,16,32), split over the ranks");
  command->add_flag("--find-max-accelerators", flags.find_max,
                    "Find the most accelerators at the workload's AU target (metric.au)");
  command->option_defaults()->always_capture_default();
  command->add_option("--min", flags.search.lowest, "The smallest count tried")->check(AtLeast(1));
  command->add_option("--max", flags.search.highest, "The largest count tried")->check(AtLeast(1));
  command->option_defaults()->always_capture_default(false);
  command
      ->add_option("--probe-steps", flags.search.probe_steps,
                   "Steps per probe (default: twice what an AU verdict needs, at least 20)")
      ->check(AtLeast(1));
  // Its range (1 to 10) is app's SweepJob's to refuse, with the reason for 3.
  command->add_option("--confirm", flags.search.confirm_runs,
                      "Full-length runs at the answer and at one more, each (default 3, 1 to 10)");
  command->callback([&action] { action = [] { return Sweep(flags); }; });
}

}  // namespace trainbench::cli
