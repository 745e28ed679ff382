// `trainbench clean WORKLOAD [overrides] [--checkpoints] [--yes]`: removes a workload's
// dataset (every object under dataset.data_folder) or its checkpoints (under
// checkpoint.checkpoint_folder), on a file system or S3. Without --yes it only lists what
// it would remove, as `rm -i`'s cautious cousin: a dataset can take hours to write.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "cli/command.h"
#include "cli/workload_args.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/units.h"
#include "dist/communicator.h"
#include "storage/storage.h"

namespace trainbench::cli {
namespace {

struct CleanFlags {
  WorkloadArgs workload;
  bool checkpoints = false;
  bool yes = false;
};

int Clean(const CleanFlags& flags) {
  const auto config = LoadWorkloadOrThrow(flags.workload);
  const std::string uri =
      flags.checkpoints ? config.checkpoint.checkpoint_folder : config::DatasetUri(config);
  const char* what = flags.checkpoints ? "checkpoints" : "dataset";
  auto storage = storage::OpenStorage(uri, config.storage.storage_options);
  const auto entries = storage->List("");
  uint64_t bytes = 0;
  for (const auto& e : entries) bytes += e.size_bytes;
  if (entries.empty()) {
    fmt::print("clean: no {} objects under {}\n", what, storage->Describe(""));
    return 0;
  }
  if (!flags.yes) {
    const size_t shown = std::min<size_t>(entries.size(), 10);
    for (size_t i = 0; i < shown; ++i)
      fmt::print("  {} ({})\n", storage->Describe(entries[i].path),
                 FormatBytes(static_cast<double>(entries[i].size_bytes)));
    if (shown < entries.size()) fmt::print("  ... and {} more\n", entries.size() - shown);
    fmt::print("clean: would remove {} {} objects ({}) under {}; add --yes to remove them\n",
               entries.size(), what, FormatBytes(static_cast<double>(bytes)),
               storage->Describe(""));
    return 0;
  }
  InstallInterruptHandler();
  size_t removed = 0;
  for (const auto& e : entries) {
    if (InterruptRequested())
      throw Interrupted(fmt::format("clean interrupted after {} of {} objects; run it again",
                                    removed, entries.size()));
    storage->Remove(e.path);
    ++removed;
  }
  // What no listing shows: uploads a killed writer left open on S3.
  const size_t leftovers = storage->RemoveLeftovers("");
  // On a file system the folders are left empty: remove them, deepest first.
  if (const auto local = storage->LocalPath("")) {
    std::error_code ec;
    std::vector<std::filesystem::path> folders;
    for (auto it = std::filesystem::recursive_directory_iterator(*local, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      if (it->is_directory(ec)) folders.push_back(it->path());
    std::sort(folders.begin(), folders.end(),
              [](const auto& a, const auto& b) { return a.string().size() > b.string().size(); });
    for (const auto& f : folders)
      if (std::filesystem::is_empty(f, ec)) std::filesystem::remove(f, ec);
  }
  fmt::print("clean: removed {} {} objects ({}) under {}{}\n", removed, what,
             FormatBytes(static_cast<double>(bytes)), storage->Describe(""),
             leftovers ? fmt::format(", and {} unfinished writes", leftovers) : "");
  return 0;
}

// Under mpirun rank 0 does the work and the other ranks wait for it, so a job script can
// clean with the same launcher line it runs with.
int Execute(const CleanFlags& flags) {
  dist::Communicator& ranks = dist::World();
  if (ranks.Rank() != 0) return ranks.Barrier() ? 0 : 1;
  const int code = Clean(flags);
  ranks.Barrier();
  return code;
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
