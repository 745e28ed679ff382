// `trainbench clean WORKLOAD [overrides] [--checkpoints] [--yes]`: removes a workload's
// dataset (the objects its manifest or journal names under dataset.data_folder) or its
// checkpoints (under checkpoint.checkpoint_folder), on a file system or S3; anything else
// there is listed as foreign and left alone. Without --yes it only lists what
// it would remove, as `rm -i`'s cautious cousin: a dataset can take hours to write.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <vector>

#include "cli/command.h"
#include "cli/workload_args.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/units.h"
#include "dataset/dataset_lock.h"
#include "dataset/ownership.h"
#include "dist/communicator.h"
#include "sim/checkpointer.h"
#include "storage/storage.h"

namespace trainbench::cli {
namespace {

struct CleanFlags {
  WorkloadArgs workload;
  bool checkpoints = false;
  bool yes = false;
};

// Trainbench's objects and the others: a dataset's are those its manifest or journal names
// (dataset/ownership.h), checkpoints those a Checkpointer writes. A place that holds objects
// but none of trainbench's is refused: it is most likely a typo in the folder.
dataset::DatasetObjects Select(storage::Storage& storage, bool checkpoints) {
  dataset::DatasetObjects found;
  if (checkpoints) {
    for (auto& e : storage.List(""))
      (sim::IsCheckpointPath(e.path) ? found.ours : found.foreign).push_back(std::move(e));
    found.has_dataset = !found.ours.empty();
  } else {
    found = dataset::FindDatasetObjects(storage);
  }
  if (!found.has_dataset && !found.foreign.empty())
    throw UsageError(fmt::format(
        "clean: {} holds {} objects (e.g. {}) but no trainbench {}: nothing removed; check {}",
        storage.Describe(""), found.foreign.size(), storage.Describe(found.foreign.front().path),
        checkpoints ? "checkpoints (<model>-epoch<N>-step<M>/*.pt)"
                    : "dataset (no trainbench_manifest.json or datagen journal)",
        checkpoints ? "checkpoint.checkpoint_folder" : "dataset.data_folder"));
  return found;
}

void PrintSome(storage::Storage& storage, const std::vector<storage::ListEntry>& entries,
               const char* tag) {
  const size_t shown = std::min<size_t>(entries.size(), 10);
  for (size_t i = 0; i < shown; ++i)
    fmt::print("  {}{} ({})\n", tag, storage.Describe(entries[i].path),
               FormatBytes(static_cast<double>(entries[i].size_bytes)));
  if (shown < entries.size()) fmt::print("  {}... and {} more\n", tag, entries.size() - shown);
}

// On a file system removing files leaves their folders: remove those left empty (and the
// split folders datagen makes even when empty), deepest first. A user's folder stays.
void RemoveEmptyFolders(storage::Storage& storage, const std::vector<storage::ListEntry>& removed) {
  const auto root = storage.LocalPath("");
  if (!root) return;
  std::set<std::filesystem::path> folders;
  for (const auto& e : removed)
    for (auto p = std::filesystem::path(e.path).parent_path(); !p.empty(); p = p.parent_path())
      folders.insert(p);
  std::error_code ec;
  for (const char* split : {"train", "valid", "index"}) {
    folders.insert(split);
    for (auto it = std::filesystem::directory_iterator(*root + "/" + split, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      if (it->is_directory(ec))
        folders.insert(std::filesystem::path(split) / it->path().filename());
  }
  std::vector<std::filesystem::path> deepest_first(folders.begin(), folders.end());
  std::sort(deepest_first.begin(), deepest_first.end(),
            [](const auto& a, const auto& b) { return a.string().size() > b.string().size(); });
  for (const auto& f : deepest_first) {
    const auto local = std::filesystem::path(*root) / f;
    if (std::filesystem::is_directory(local, ec) && std::filesystem::is_empty(local, ec))
      std::filesystem::remove(local, ec);
  }
}

int Clean(const CleanFlags& flags) {
  const auto config = LoadWorkloadOrThrow(flags.workload);
  const std::string uri =
      flags.checkpoints ? config.checkpoint.checkpoint_folder : config::DatasetUri(config);
  const char* what = flags.checkpoints ? "checkpoints" : "dataset";
  auto storage = storage::OpenStorage(uri, config.storage.storage_options);
  const auto found = Select(*storage, flags.checkpoints);
  const auto& entries = found.ours;
  uint64_t bytes = 0;
  for (const auto& e : entries) bytes += e.size_bytes;
  const std::string foreign_note =
      found.foreign.empty() ? ""
                            : fmt::format("; {} objects trainbench did not write are left alone",
                                          found.foreign.size());
  if (entries.empty()) {
    fmt::print("clean: no {} objects under {}\n", what, storage->Describe(""));
    return 0;
  }
  if (!flags.yes) {
    PrintSome(*storage, entries, "");
    PrintSome(*storage, found.foreign, "foreign, kept: ");
    fmt::print("clean: would remove {} {} objects ({}) under {}{}; add --yes to remove them\n",
               entries.size(), what, FormatBytes(static_cast<double>(bytes)), storage->Describe(""),
               foreign_note);
    return 0;
  }
  InstallInterruptHandler();
  // A datagen writing this dataset now would go on writing into what is being removed.
  std::optional<dataset::DatasetLock> lock;
  if (!flags.checkpoints) lock.emplace(*storage);
  size_t removed = 0;
  for (const auto& e : entries) {
    if (InterruptRequested())
      throw Interrupted(fmt::format("clean interrupted after {} of {} objects; run it again",
                                    removed, entries.size()));
    if (e.path == dataset::kLockName) continue;  // held now; removed once released
    storage->Remove(e.path);
    ++removed;
  }
  if (lock) {
    lock.reset();
    if (storage->FileSize(dataset::kLockName)) storage->Remove(dataset::kLockName);
  }
  // What no listing shows: uploads a killed writer left open on S3.
  const size_t leftovers = storage->RemoveLeftovers("");
  RemoveEmptyFolders(*storage, entries);
  PrintSome(*storage, found.foreign, "foreign, kept: ");
  fmt::print("clean: removed {} {} objects ({}) under {}{}{}\n", entries.size(), what,
             FormatBytes(static_cast<double>(bytes)), storage->Describe(""),
             leftovers ? fmt::format(", and {} unfinished writes", leftovers) : "", foreign_note);
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
