// `trainbench sweep WORKLOAD --find-max-accelerators`: the flags of app's SweepJob (how many
// accelerators this storage feeds at the workload's AU target) and its answer on stdout.

#include <fmt/format.h>

#include "app/frame/binary_job.h"
#include "app/sweep/grid_sweep_job.h"
#include "app/sweep/sweep_job.h"
#include "app/workload_load.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"
#include "common/error.h"
#include "common/strings.h"
#include "config/mix.h"

namespace trainbench::cli {
namespace {

struct SweepFlags {
  RunFlags run;
  std::string accelerators;  // a grid axis: 8,16,32
  bool find_max = false;
  app::SweepOptions search;  // --min, --max, --probe-steps, --confirm
  std::string mix_file;      // --mix
  std::string vary;          // --vary
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

// --mix FILE --vary JOB: the search over one job of a mix, the others beside every probe. The
// words after the flags are the mix's overrides (KEY=VALUE, NAME:KEY=VALUE), as `mix` takes.
int SweepMix(SweepFlags& flags) {
  if (flags.vary.empty() || !flags.find_max)
    throw UsageError(
        "--mix searches one job of the mix: give --vary JOB and --find-max-accelerators");
  auto& words = flags.run.workload;
  std::vector<std::string> overrides = words.overrides;
  if (!words.workload.empty()) {
    if (words.workload.find('=') == std::string::npos)
      throw UsageError(fmt::format(
          "'{}': with --mix the workloads are the mix file's jobs; after the flags come only "
          "overrides (KEY=VALUE for every job, NAME:KEY=VALUE for one)",
          words.workload));
    overrides.insert(overrides.begin(), words.workload);
  }
  config::Mix mix = config::LoadMixFile(flags.mix_file);
  config::CheckMix(mix);
  for (const auto& text : overrides) config::ApplyMixOverride(mix, text);
  const config::MixJob& vary = config::MixJobNamed(mix, flags.vary, "--vary");
  app::SweepOptions options = flags.search;
  options.vary = flags.vary;
  // The varied job's config names the sweep's folder and where its results go.
  options.run.config =
      app::LoadCheckedWorkload(vary.workload, vary.overrides, words.quiet_warnings);
  app::MixOptions& m = options.mix.emplace();
  m.mix = std::move(mix);
  m.interval_s = flags.run.job.interval_s > 0 ? flags.run.job.interval_s : 1;
  m.quiet = words.quiet_warnings;
  m.reads = flags.run.job.reads;
  return ShowJobReport(app::SweepJob(options));
}

int Sweep(SweepFlags& flags) {
  if (!flags.mix_file.empty()) return SweepMix(flags);
  if (!flags.vary.empty()) throw UsageError("--vary names a job of a mix: give --mix FILE too");
  if (flags.run.workload.workload.empty())
    throw UsageError("name the workload to sweep (resnet50_h100, or a DLIO YAML file)");
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
      "  trainbench sweep --mix mix.yaml --vary resnet --find-max-accelerators   # others beside\n"
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
  command->add_option("--mix", flags.mix_file,
                      "A mix file (trainbench mix): search one of its jobs (--vary) while the "
                      "others run beside every probe as given; then no WORKLOAD");
  command->add_option("--vary", flags.vary, "The job of the --mix whose accelerators are searched");
  command->get_option("workload")->required(false);
  command->callback([&action] { action = [] { return Sweep(flags); }; });
}

}  // namespace trainbench::cli
