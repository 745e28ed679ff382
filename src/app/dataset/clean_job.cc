#include "app/dataset/clean_job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <vector>

#include "common/error.h"
#include "common/interrupt.h"
#include "common/strings.h"
#include "common/units.h"
#include "config/workload_yaml.h"
#include "dataset/dataset_lock.h"
#include "dataset/ownership.h"
#include "dist/communicator.h"
#include "sim/checkpointer.h"
#include "storage/storage.h"

namespace trainbench::app {
namespace {

// Trainbench's objects and the others: a dataset's are those its manifest or journal names
// (dataset/ownership.h), checkpoints those a Checkpointer's records name. A place that holds
// objects but none of trainbench's is refused: it is most likely a typo in the folder.
dataset::DatasetObjects Select(storage::Storage& storage, bool checkpoints) {
  dataset::DatasetObjects found =
      checkpoints ? sim::FindCheckpointObjects(storage) : dataset::FindDatasetObjects(storage);
  if (!found.has_dataset && !found.foreign.empty())
    throw UsageError(
        fmt::format("clean: {} holds {} (e.g. {}) but no trainbench {}: nothing removed; check {}",
                    storage.Describe(""), CountOf(found.foreign.size(), "object"),
                    storage.Describe(found.foreign.front().path),
                    checkpoints ? "checkpoints (no .trainbench_checkpoint.rank<R>.json record)"
                                : "dataset (no trainbench_manifest.json or datagen journal)",
                    checkpoints ? "checkpoint.checkpoint_folder" : "dataset.data_folder"));
  return found;
}

std::vector<CleanEntry> Described(const storage::Storage& storage,
                                  const std::vector<storage::ListEntry>& entries) {
  std::vector<CleanEntry> out;
  out.reserve(entries.size());
  for (const auto& e : entries) out.push_back({storage.Describe(e.path), e.size_bytes});
  return out;
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

CleanResult Clean(const CleanOptions& options, const StorageOpener& open_storage) {
  const auto& config = options.config;
  const std::string uri =
      options.checkpoints ? config.checkpoint.checkpoint_folder : config::DatasetUri(config);
  auto storage = open_storage(uri, config.storage.storage_options);
  const auto found = Select(*storage, options.checkpoints);
  CleanResult result;
  result.what = options.checkpoints ? "checkpoint" : "dataset";
  result.place = storage->Describe("");
  result.ours = Described(*storage, found.ours);
  result.foreign = Described(*storage, found.foreign);
  for (const auto& e : found.ours) result.bytes += e.size_bytes;
  if (found.ours.empty() || !options.yes) return result;
  InstallInterruptHandler();
  // A datagen writing this dataset now would go on writing into what is being removed.
  std::optional<dataset::DatasetLock> lock;
  if (!options.checkpoints) {
    lock.emplace(*storage);
    // A run reading it now would die mid-epoch on a file removed under it.
    if (const auto readers = dataset::ReaderMark::LiveReaders(*storage); !readers.empty())
      throw RuntimeError(fmt::format(
          "clean: the dataset at {} is being read by {} ({}): nothing removed; wait for {} to "
          "end, then clean again",
          result.place, CountOf(readers.size(), "trainbench job"), fmt::join(readers, ", "),
          readers.size() == 1 ? "it" : "them"));
  }
  size_t removed = 0;
  for (const auto& e : found.ours) {
    if (InterruptRequested())
      throw Interrupted(fmt::format("clean interrupted after {} of {} objects; run it again",
                                    removed, found.ours.size()));
    if (e.path == dataset::kLockName) continue;  // held now; removed once released
    storage->Remove(e.path);
    ++removed;
  }
  if (lock) {
    lock.reset();
    if (storage->FileSize(dataset::kLockName)) storage->Remove(dataset::kLockName);
  }
  // What no listing shows: uploads a killed writer left open on S3.
  result.leftovers = storage->RemoveLeftovers("");
  RemoveEmptyFolders(*storage, found.ours);
  result.removed = true;
  return result;
}

// At most ten names of `entries`, then how many more.
void AppendSome(std::string& text, const std::vector<CleanEntry>& entries, const char* tag) {
  const size_t shown = std::min<size_t>(entries.size(), 10);
  for (size_t i = 0; i < shown; ++i)
    text += fmt::format("  {}{} ({})\n", tag, entries[i].name,
                        FormatBytes(static_cast<double>(entries[i].bytes)));
  if (shown < entries.size())
    text += fmt::format("  {}... and {} more\n", tag, entries.size() - shown);
}

std::string CleanText(const CleanResult& r) {
  if (r.ours.empty()) return fmt::format("clean: no {} objects under {}\n", r.what, r.place);
  const std::string foreign_note =
      r.foreign.empty()
          ? ""
          : fmt::format("; {} trainbench did not write {} left alone",
                        CountOf(r.foreign.size(), "object"), r.foreign.size() == 1 ? "is" : "are");
  const std::string bytes = FormatBytes(static_cast<double>(r.bytes));
  std::string text;
  if (!r.removed) {
    AppendSome(text, r.ours, "");
    AppendSome(text, r.foreign, "foreign, kept: ");
    return text + fmt::format("clean: would remove {} ({}) under {}{}; add --yes to remove them\n",
                              CountOf(r.ours.size(), r.what + " object"), bytes, r.place,
                              foreign_note);
  }
  AppendSome(text, r.foreign, "foreign, kept: ");
  return text + fmt::format("clean: removed {} ({}) under {}{}{}\n",
                            CountOf(r.ours.size(), r.what + " object"), bytes, r.place,
                            r.leftovers ? ", and " + CountOf(r.leftovers, "unfinished write") : "",
                            foreign_note);
}

}  // namespace

// Under mpirun rank 0 does the work and the other ranks wait for it, so a job script can
// clean with the same launcher line it runs with.
CleanResult CleanJob(const CleanOptions& options, JobEnv& env) {
  if (env.ranks.Rank() != 0) {
    if (!env.ranks.Barrier()) throw RuntimeError("clean: rank 0 failed");
    return {};
  }
  CleanResult result = Clean(options, env.open_storage);
  result.reports = true;
  result.text = CleanText(result);
  env.ranks.Barrier();
  return result;
}

}  // namespace trainbench::app
