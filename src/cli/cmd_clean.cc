// `trainbench clean WORKLOAD [overrides] [--checkpoints] [--yes]`: the flags of app's
// CleanJob and what it found or removed. Without --yes it only lists, as `rm -i`'s cautious
// cousin: a dataset can take hours to write.
#include "app/dataset/clean_job.h"
#include "app/frame/binary_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"

namespace trainbench::cli {
namespace {

struct CleanFlags {
  WorkloadArgs workload;
  bool checkpoints = false;
  bool yes = false;
};

int Execute(const CleanFlags& flags) {
  auto env = app::BinaryJobEnv(nullptr);
  return ShowJobReport(
      app::CleanJob({LoadWorkloadOrThrow(flags.workload), flags.checkpoints, flags.yes}, env));
}

}  // namespace

void AddCleanCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "clean", "Remove a workload's dataset or checkpoints (file system or S3); lists first");
  command->footer(
      "Examples:\n"
      "  trainbench clean resnet50_h100 dataset.data_folder=s3://bucket/resnet50          # list\n"
      "  trainbench clean resnet50_h100 dataset.data_folder=s3://bucket/resnet50 --yes    # "
      "remove\n"
      "  trainbench clean resnet50_h100 checkpoint.checkpoint_folder=/mnt/ckpt --checkpoints "
      "--yes");
  static CleanFlags flags;
  AddWorkloadArgs(*command, flags.workload);
  command->add_flag("--checkpoints", flags.checkpoints,
                    "Remove checkpoint.checkpoint_folder's objects instead of the dataset");
  command->add_flag("--yes,-y", flags.yes, "Remove; without it, only list what would go");
  command->callback([&action] { action = [] { return Execute(flags); }; });
}

}  // namespace trainbench::cli
