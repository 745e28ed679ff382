// `trainbench clean WORKLOAD [overrides] [--checkpoints] [--yes]`: the flags of app's
// CleanJob and what it found or removed. Without --yes it only lists, as `rm -i`'s cautious
// cousin: a dataset can take hours to write.
#include <fmt/format.h>

#include <algorithm>

#include "app/clean_job.h"
#include "app/job_env.h"
#include "cli/command.h"
#include "cli/workload_args.h"
#include "common/units.h"

namespace trainbench::cli {
namespace {

struct CleanFlags {
  WorkloadArgs workload;
  bool checkpoints = false;
  bool yes = false;
};

void PrintSome(const std::vector<app::CleanEntry>& entries, const char* tag) {
  const size_t shown = std::min<size_t>(entries.size(), 10);
  for (size_t i = 0; i < shown; ++i)
    fmt::print("  {}{} ({})\n", tag, entries[i].name,
               FormatBytes(static_cast<double>(entries[i].bytes)));
  if (shown < entries.size()) fmt::print("  {}... and {} more\n", tag, entries.size() - shown);
}

int Execute(const CleanFlags& flags) {
  auto env = app::BinaryJobEnv(nullptr);
  const auto result =
      app::CleanJob({LoadWorkloadOrThrow(flags.workload), flags.checkpoints, flags.yes}, env);
  if (!result) return 0;  // not rank 0
  const auto& r = *result;
  const std::string foreign_note =
      r.foreign.empty()
          ? ""
          : fmt::format("; {} objects trainbench did not write are left alone", r.foreign.size());
  if (r.ours.empty()) {
    fmt::print("clean: no {} objects under {}\n", r.what, r.place);
    return 0;
  }
  if (!r.removed) {
    PrintSome(r.ours, "");
    PrintSome(r.foreign, "foreign, kept: ");
    fmt::print("clean: would remove {} {} objects ({}) under {}{}; add --yes to remove them\n",
               r.ours.size(), r.what, FormatBytes(static_cast<double>(r.bytes)), r.place,
               foreign_note);
    return 0;
  }
  PrintSome(r.foreign, "foreign, kept: ");
  fmt::print("clean: removed {} {} objects ({}) under {}{}{}\n", r.ours.size(), r.what,
             FormatBytes(static_cast<double>(r.bytes)), r.place,
             r.leftovers ? fmt::format(", and {} unfinished writes", r.leftovers) : "",
             foreign_note);
  return 0;
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
