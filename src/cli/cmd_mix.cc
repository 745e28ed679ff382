// `trainbench mix [MIX.yaml] [--job SPEC]... [overrides]`: the flags of app's MixJob (several
// jobs against one storage at once: config/mix.h) and its table and final line on stdout.
#include <fmt/format.h>

#include "app/mix/mix_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"
#include "common/error.h"

namespace trainbench::cli {
namespace {

struct MixFlags {
  std::vector<std::string> words;  // the mix file and the overrides
  std::vector<std::string> jobs;   // --job
  app::MixOptions options;
  bool progress = true;  // --no-progress: the jobs show none anyway (their lines say it)
};

int Execute(MixFlags& flags) {
  config::Mix mix;
  std::vector<std::string> overrides;
  for (const auto& word : flags.words) {
    if (word.find('=') != std::string::npos) {
      overrides.push_back(word);
    } else if (mix.source.empty()) {
      mix = config::LoadMixFile(word);
    } else {
      throw UsageError(fmt::format("two mix files ({} and {}): give one, and more jobs with --job",
                                   mix.source, word));
    }
  }
  for (const auto& text : flags.jobs) mix.jobs.push_back(config::ParseMixJob(text));
  if (mix.source.empty()) mix.source = "--job";
  config::CheckMix(mix);
  for (const auto& text : overrides) config::ApplyMixOverride(mix, text);
  flags.options.mix = std::move(mix);
  return ShowJobReport(app::MixJob(flags.options));
}

}  // namespace

void AddMixCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "mix",
      "Run several jobs against one storage at once (trainings, checkpointing on a schedule): "
      "each job's AU, samples/s and latency, the storage's aggregate, and what each costs the "
      "others");
  command->footer(
      "Examples:\n"
      "  trainbench mix mix.yaml                       # jobs: [{workload: ..., accelerators: "
      "...}]\n"
      "  trainbench mix --job 'workload=resnet50_h100 accelerators=8' \\\n"
      "                 --job 'workload=unet3d_h100 accelerators=2' \\\n"
      "                 --job 'workload=llama3_8b accelerators=8 every_s=60' \\\n"
      "                 dataset.data_folder=/mnt/fs/data --baseline\n"
      "  mpirun -np 4 --hostfile hosts trainbench mix mix.yaml   # every job over the 4 ranks\n"
      "Overrides: KEY=VALUE sets it in every job, NAME:KEY=VALUE in job NAME. Results: "
      "<output>/mix-<UTC time>/ (a folder per job); stdout ends with {\"trainbench_mix\": "
      "{...}}. More: docs/mixes.md");
  static MixFlags flags;
  command->add_option("mix", flags.words,
                      "A mix file (YAML: jobs: [...]), then overrides: KEY=VALUE or "
                      "NAME:KEY=VALUE");
  command
      ->add_option("--job", flags.jobs,
                   "A job, as words KEY=VALUE: workload=W accelerators=N [name=N] "
                   "[every_s=S] [background=true] [dataset.data_folder=...] (repeatable)")
      ->allow_extra_args(false);  // one word per --job: the overrides after it are the mix's
  command->add_flag("--baseline", flags.options.baseline,
                    "Run each job alone first, so each job's cost of sharing is measured");
  AddOutputFlag(*command, flags.options.output_folder,
                "under this folder (default: the first job's output.folder)");
  command
      ->add_option("--interval", flags.options.interval_s,
                   "Seconds per row of each job's timeseries.csv, the AU over time (default 1)")
      ->check(PositiveFinite());
  AddNoProgressFlag(*command, flags.progress);
  command->add_flag("--drop-caches", flags.options.drop_caches,
                    "Empty every host's page cache before the jobs start, and before each job "
                    "alone (root; one rank per host)");
  AddOpLogFlag(*command, flags.options.op_log,
               "each job's reads and checkpoint writes (a file per job: its name before .tsv, "
               "ops.resnet.tsv.zst)");
  command->callback([&action] { action = [] { return Execute(flags); }; });
}

}  // namespace trainbench::cli
