// `trainbench datagen WORKLOAD [overrides]`: the flags of app's DatagenJob (the workload's
// train and eval files in DLIO's layout, plus a manifest, at dataset.data_folder) and its
// lines on stdout; with --output DIR its results folder too.

#include "app/dataset/datagen_job.h"
#include "app/frame/binary_job.h"
#include "app/workload_load.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"

namespace trainbench::cli {
namespace {

struct DatagenFlags {
  WorkloadArgs workload;
  app::DatagenJobOptions job;
  std::string output;  // "": no results folder
};

int Datagen(DatagenFlags& flags) {
  auto job = flags.job;
  job.config = LoadWorkloadOrThrow(flags.workload);
  app::BinaryJob binary(flags.output, "datagen.log", "--output");
  return ShowJobReport(app::DatagenJob(job, binary.env()));
}

}  // namespace

void AddDatagenCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "datagen", "Generate a workload's dataset (DLIO layout and formats) with a manifest");
  command->footer(
      "Examples:\n"
      "  trainbench datagen resnet50_h100 dataset.num_files_train=8 dataset.data_folder=/tmp/d\n"
      "  trainbench datagen unet3d_h100 ++workload.dataset.data_folder=file:///mnt/fs/unet3d "
      "--verify --output results\n"
      "A stopped datagen leaves no partial file; the same command finishes the rest. stdout "
      "ends with {\"trainbench_datagen\": {...}}. More: docs/commands.md\n\n" +
      app::FormatList());
  static DatagenFlags flags;
  auto& g = flags.job.generate;
  AddWorkloadArgs(*command, flags.workload);
  command->add_option("--threads,-j", g.threads, "Files written in parallel (default: all cores)")
      ->check(Between(0, 1024));
  command->add_flag("--verify", g.verify, "Re-read every file afterwards and check its structure");
  command->add_flag("--force", g.force,
                    "Write even when the file system has less free space than the dataset needs");
  command->add_flag("--replace", g.replace,
                    "Remove a dataset of other settings in the folder, then write this one");
  AddNoProgressFlag(*command, g.progress);
  AddOpLogFlag(*command, flags.job.op_log, "every write (and HEAD, LIST, DELETE)");
  AddOutputFlag(*command, flags.output, "in <DIR>/datagen-<workload>-<UTC stamp>/ (default: none)");
  AddIntervalFlag(*command, flags.job.interval_s, "bytes written");
  command->callback([&action] { action = [] { return Datagen(flags); }; });
}

}  // namespace trainbench::cli
