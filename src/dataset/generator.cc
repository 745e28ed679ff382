#include "dataset/generator.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/json_fields.h"
#include "common/log.h"
#include "common/strings.h"
#include "common/units.h"
#include "dataset/dataset_lock.h"
#include "dataset/parallel.h"
#include "dataset/progress.h"
#include "dist/typed_gather.h"
#include "formats/format.h"
#include "storage/counting_storage.h"
#include "storage/io_error.h"

namespace trainbench::dataset {
namespace {

// A file that --verify found damaged (not a storage failure): with --replace it is rewritten.
class DamagedFile : public RuntimeError {
 public:
  DamagedFile(const std::string& message, std::string path)
      : RuntimeError(message), path_(std::move(path)) {}
  const std::string& Path() const { return path_; }

 private:
  std::string path_;
};

// About how many bytes a planned file takes: an image file holds its one image however
// many samples DLIO counts in it; csv writes each value as text.
uint64_t StoredBytes(const formats::FormatTraits& traits, const PlannedFile& f) {
  const uint64_t payload = traits.whole_file_samples && !f.sample_sizes.empty()
                               ? f.sample_sizes.front()
                               : f.PayloadBytes();
  return static_cast<uint64_t>(traits.stored_bytes_per_sample_byte * static_cast<double>(payload));
}

// A finished file is one the manifest or journal knows and whose bytes are all there.
bool IsComplete(const formats::WrittenFile& known, storage::Storage& storage) {
  const auto size = storage.FileSize(known.path);
  if (!size || *size != known.size_bytes) return false;
  for (const auto& companion : known.companions)
    if (!storage.FileSize(companion)) return false;
  return true;
}

// A dataset of other settings in the folder: refused, or with `replace` its files (those its
// manifest lists) and manifest removed first.
void CheckCompatible(std::optional<Manifest>& existing, const nlohmann::json& key,
                     storage::Storage& storage, bool replace) {
  if (!existing || existing->key == key) return;
  if (replace) {
    uint64_t removed = 0;
    for (const auto& f : existing->files) {
      std::vector<std::string> paths = f.companions;
      paths.push_back(f.path);
      for (const auto& path : paths) {
        if (!storage.FileSize(path)) continue;
        storage.Remove(path);
        ++removed;
      }
    }
    storage.Remove(kManifestName);
    LogInfo(fmt::format("--replace: removed the {} files of the dataset of other settings in {}",
                        removed, storage.Describe("")));
    existing.reset();
    return;
  }
  std::string differs;
  for (const auto& [name, value] : key.items()) {
    if (!existing->key.contains(name) || existing->key.at(name) != value)
      differs += fmt::format("{}{} ({} there, {} now)", differs.empty() ? "" : ", ", name,
                             existing->key.contains(name) ? existing->key.at(name).dump() : "unset",
                             value.dump());
  }
  throw UsageError(
      fmt::format("the dataset at '{}' was generated with other settings: {}; choose another "
                  "dataset.data_folder, or add --replace to remove it and write this one",
                  storage.Describe(""), differs));
}

// DLIO's run lists train/ and valid/ and fails on a missing one even with no eval files,
// and asserts that a split has all num_subfolders_* subfolders, with files or not. Object
// stores have no folders to make.
void CreateSplitFolders(const config::WorkloadConfig& config, storage::Storage& storage) {
  std::vector<std::string> folders = {"train", "valid"};
  for (const auto& [split, count] : {std::pair{Split::kTrain, config.dataset.num_subfolders_train},
                                     std::pair{Split::kEval, config.dataset.num_subfolders_eval}})
    for (uint64_t i = 0; count > 1 && i < count; ++i)
      folders.push_back(SplitFolder(split, i, count));
  for (const auto& folder : folders) {
    const auto local = storage.LocalPath(folder);
    if (!local) continue;
    std::error_code error;
    std::filesystem::create_directories(*local, error);
    if (error) storage::ThrowIoError("cannot create the folder", *local, error.value());
  }
}

// The top folder of `path` ("index" of "index/train/x.idx"); "" for a file at the root.
std::string TopFolder(const std::string& path) {
  const size_t slash = path.find('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

void AddFolder(std::vector<std::string>& folders, const std::string& path) {
  const std::string top = TopFolder(path);
  if (!top.empty() && std::find(folders.begin(), folders.end(), top) == folders.end())
    folders.push_back(top);
}

// Where datagen writes: the splits, then the folders the format's companion files go in (a
// TFRecord's DALI index under index/).
std::vector<std::string> DatasetFolders(const DatasetPlan& plan,
                                        const formats::FormatDescription& format) {
  std::vector<std::string> folders = {"train", "valid"};
  if (format.companions)
    for (const auto& f : plan.files)
      for (const auto& c : format.companions(f.path)) AddFolder(folders, c);
  return folders;
}

// Files an earlier datagen wrote here (its manifest or journal lists them) that this plan
// does not have: a smaller dataset must not leave them for a scan to read. Files trainbench
// did not write are left alone, with a warning.
uint64_t RemoveFilesNotPlanned(const DatasetPlan& plan, const formats::FormatDescription& format,
                               const std::map<std::string, formats::WrittenFile>& known,
                               storage::Storage& storage, std::vector<std::string> folders) {
  std::set<std::string> planned, ours;
  for (const auto& f : plan.files) planned.insert(f.path);
  for (const auto& [path, f] : known) {
    ours.insert(path);
    for (const auto& c : f.companions) {
      ours.insert(c);
      AddFolder(folders, c);  // an earlier dataset's companions, wherever they went
    }
  }
  for (const auto& f : plan.files) {  // a planned file's companions are planned too
    if (const auto it = known.find(f.path); it != known.end())
      for (const auto& c : it->second.companions) planned.insert(c);
    // A companion written by a killed datagen after its journal's last record (a TFRecord's
    // index).
    if (format.companions)
      for (auto& c : format.companions(f.path)) planned.insert(std::move(c));
  }
  uint64_t removed = 0;
  std::vector<std::string> foreign;
  for (const auto& folder : folders) {
    for (const auto& entry : storage.List(folder)) {
      if (planned.count(entry.path)) continue;
      if (ours.count(entry.path)) {
        storage.Remove(entry.path);
        ++removed;
      } else {
        foreign.push_back(entry.path);
      }
    }
  }
  if (removed > 0)
    LogInfo(fmt::format("removed {} of the earlier dataset in {} that this one does not have",
                        CountOf(removed, "file"), storage.Describe("")));
  if (!foreign.empty())
    LogWarning(fmt::format(
        "{} under {} {} not trainbench's and {} left alone (a run without the manifest would "
        "read {}), e.g. {}",
        CountOf(foreign.size(), "file"), storage.Describe(""), foreign.size() == 1 ? "is" : "are",
        foreign.size() == 1 ? "was" : "were", foreign.size() == 1 ? "it" : "them",
        storage.Describe(foreign.front())));
  return removed;
}

// Refuses before anything is written when the file system holding the dataset has less
// free space than the files still to write (datagen of a large workload used to fill the
// disk first and fail after).
void CheckFreeSpace(uint64_t planned_bytes, storage::Storage& storage, bool force) {
  const auto root = storage.LocalPath("");
  if (!root || planned_bytes == 0) return;
  struct statvfs fs;
  if (::statvfs(root->c_str(), &fs) != 0) return;
  // A file system that reports no size at all (a CephFS whose cluster has no ceph-mgr to
  // sum its pools, some FUSE file systems) cannot tell: warn rather than refuse as if full.
  if (fs.f_blocks == 0) {
    LogWarning(fmt::format(
        "{} reports no capacity (statfs: 0 blocks), so the free space for the {} bytes ({}) "
        "still to write cannot be checked",
        *root, planned_bytes, FormatBytes(static_cast<double>(planned_bytes))));
    return;
  }
  const uint64_t free_bytes = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (planned_bytes <= free_bytes) return;
  const std::string numbers =
      fmt::format("the files still to write need {} bytes ({}) but {} has {} bytes ({}) free",
                  planned_bytes, FormatBytes(static_cast<double>(planned_bytes)), *root, free_bytes,
                  FormatBytes(static_cast<double>(free_bytes)));
  if (force) {
    LogWarning(numbers + "; writing anyway (--force)");
    return;
  }
  throw UsageError(numbers +
                   ": free space, lower dataset.num_files_train/num_samples_per_file, choose "
                   "another dataset.data_folder, or pass --force to write until it is full");
}

// The files a rank writes: r, r+R, ... of the plan.
bool Mine(uint64_t file, int rank, int ranks) {
  return file % static_cast<uint64_t>(ranks) == static_cast<uint64_t>(rank);
}

std::string JournalName(int rank, int ranks) {
  if (ranks <= 1) return kJournalName;
  return fmt::format("{}.rank{}", kJournalName, rank);
}

void WaitForRanks(dist::Communicator* ranks) {
  if (!ranks || ranks->Barrier()) return;
  if (InterruptRequested()) throw Interrupted();
  throw RuntimeError("datagen stopped: " + ranks->PeerFailure().value_or("another rank failed"));
}

// Temporary files (multipart uploads on S3) a killed writer left under the dataset's folders.
size_t RemoveLeftovers(storage::Storage& storage, const std::vector<std::string>& folders) {
  size_t removed = 0;
  for (const auto& folder : folders) removed += storage.RemoveLeftovers(folder);
  return removed;
}

// What is already done: the manifest's files, then the journal's (newer).
std::map<std::string, formats::WrittenFile> KnownFiles(const std::optional<Manifest>& existing,
                                                       const Journal& journal) {
  std::map<std::string, formats::WrittenFile> known;
  if (existing)
    for (const auto& f : existing->files) known[f.path] = f;
  for (const auto& [path, f] : journal.Entries()) known[path] = f;
  return known;
}

// A datagen killed under another rank count left journals of other names (".rank3" of four
// ranks, or the one-process journal): their files are finished all the same. Each is
// recorded again in the journal of the rank that writes it now (files the plan no longer has
// in rank 0's, whose cleanup removes them), and the old journals go, so no file is written
// twice and no journal outlives the dataset. Rank 0 alone, under the lock.
void AdoptOtherRanksJournals(const DatasetPlan& plan, const nlohmann::json& key,
                             storage::Storage& storage, int ranks) {
  std::set<std::string> current, others;
  for (int r = 0; r < ranks; ++r) current.insert(JournalName(r, ranks));
  for (const auto& e : storage.List(""))
    if (const auto name = JournalNameOf(e.path); name && !current.count(*name))
      others.insert(*name);
  if (others.empty()) return;
  std::map<std::string, uint64_t> index_of;
  for (uint64_t i = 0; i < plan.files.size(); ++i) index_of[plan.files[i].path] = i;
  std::vector<std::vector<formats::WrittenFile>> by_rank(static_cast<size_t>(ranks));
  std::vector<std::unique_ptr<Journal>> old;
  size_t adopted = 0;
  for (const auto& name : others) {
    old.push_back(std::make_unique<Journal>(storage, name, key));
    for (const auto& [path, file] : old.back()->Entries()) {
      const auto it = index_of.find(path);
      by_rank[it == index_of.end() ? 0 : it->second % static_cast<uint64_t>(ranks)].push_back(file);
      ++adopted;
    }
  }
  for (int r = 0; r < ranks; ++r) {
    if (by_rank[static_cast<size_t>(r)].empty()) continue;
    Journal now(storage, JournalName(r, ranks), key);
    for (const auto& file : by_rank[static_cast<size_t>(r)]) now.Record(file);
  }  // each closed (its last piece written) before the old ones go
  for (auto& journal : old) journal->Remove();
  LogInfo(fmt::format(
      "{} files recorded by an earlier datagen of another rank count ({}) are kept; now {} "
      "rank(s) write the rest",
      adopted, fmt::join(others, ", "), ranks));
}

// The file the manifest or journal knows for `f`, when it is whole and of the planned
// samples; else null (to be written).
const formats::WrittenFile* FinishedFile(const std::map<std::string, formats::WrittenFile>& known,
                                         const PlannedFile& f, storage::Storage& storage) {
  const auto it = known.find(f.path);
  if (it != known.end() && it->second.num_samples == f.sample_sizes.size() &&
      IsComplete(it->second, storage))
    return &it->second;
  return nullptr;
}

// Rank 0 alone, under the lock, before any rank writes: the folder is made ready for this
// dataset. Returns how many files of an earlier dataset it removed.
uint64_t PrepareFolder(const config::WorkloadConfig& config, const DatasetPlan& plan,
                       const formats::FormatDescription& format,
                       const std::vector<std::string>& folders, const nlohmann::json& key,
                       storage::Storage& storage, const GenerateOptions& options, int ranks) {
  auto existing = ReadManifest(storage);
  CheckCompatible(existing, key, storage, options.replace);
  RemoveLeftovers(storage, folders);
  CreateSplitFolders(config, storage);
  AdoptOtherRanksJournals(plan, key, storage, ranks);
  const Journal journal(storage, JournalName(0, ranks), key);
  const auto known = KnownFiles(existing, journal);
  uint64_t planned_bytes = 0;
  const auto& traits = formats::FindFormat(config.dataset.format).traits;
  for (const auto& f : plan.files)
    if (!FinishedFile(known, f, storage)) planned_bytes += StoredBytes(traits, f);
  // Refused for space before anything, the earlier dataset's files included, is removed.
  CheckFreeSpace(planned_bytes, storage, options.force);
  return RemoveFilesNotPlanned(plan, format, known, storage, folders);
}

// A rank's files of the plan: those already complete, kept, and those still to write.
struct RankFiles {
  std::vector<formats::WrittenFile> written;  // by plan index: the kept ones so far
  std::vector<uint64_t> pending;              // plan indexes
  uint64_t skipped = 0;
};

RankFiles SortRankFiles(const DatasetPlan& plan,
                        const std::map<std::string, formats::WrittenFile>& known,
                        storage::Storage& storage, int rank, int ranks) {
  RankFiles files;
  files.written.resize(plan.files.size());
  uint64_t mine = 0;
  for (uint64_t i = 0; i < plan.files.size(); ++i) {
    if (!Mine(i, rank, ranks)) continue;
    ++mine;
    if (const auto* finished = FinishedFile(known, plan.files[i], storage)) {
      files.written[i] = *finished;
      ++files.skipped;
    } else {
      files.pending.push_back(i);
    }
  }
  if (files.skipped > 0)
    LogInfo(fmt::format("{} of {} files already complete; writing the other {}", files.skipped,
                        mine, files.pending.size()));
  return files;
}

// Writes the pending files, `options.threads` at once, each recorded in the journal once
// whole. Returns the bytes written, companion files included.
uint64_t WriteFiles(const config::WorkloadConfig& config, const DatasetPlan& plan,
                    const formats::FileFormat& format, RankFiles& files, Journal& journal,
                    storage::Storage& storage, const GenerateOptions& options) {
  uint64_t pending_bytes = 0;
  const auto& traits = formats::FindFormat(config.dataset.format).traits;
  for (const auto i : files.pending) pending_bytes += StoredBytes(traits, plan.files[i]);
  std::atomic<uint64_t> bytes_written{0};
  // Bytes count as they are appended, so a large file's progress shows before it is whole.
  storage::CountingStorage counting(storage);
  std::optional<Progress> progress;
  if (options.progress && !files.pending.empty())
    progress.emplace("datagen", files.pending.size(), pending_bytes,
                     [&counting] { return counting.bytes_appended(); });
  ParallelFor(files.pending.size(), options.threads, [&](uint64_t t) {
    const PlannedFile& planned = plan.files[files.pending[t]];
    formats::FileSpec spec{planned.path, planned.seed, planned.sample_sizes};
    formats::WrittenFile file = format.Write(spec, counting);
    journal.Record(file);
    uint64_t total = file.size_bytes;
    for (const auto& companion : file.companions) total += storage.FileSize(companion).value_or(0);
    bytes_written.fetch_add(total);
    if (progress) progress->Add(1, total);
    files.written[files.pending[t]] = std::move(file);
  });
  return bytes_written.load();
}

// What a rank wrote: its files' manifest lines (files r, r+R, ...) and its counts.
struct RankReport {
  std::vector<nlohmann::json> files;
  uint64_t written = 0;
  uint64_t skipped = 0;
  uint64_t bytes = 0;
};
TB_JSON_FIELDS(RankReport, files, written, skipped, bytes)

// Rank 0 learns every rank's files (for the manifest, into `written`) and adds their counts
// to `result`; the other ranks send theirs.
void GatherRanks(dist::Communicator& ranks, std::vector<formats::WrittenFile>& written,
                 GenerateResult& result) {
  const int rank = ranks.Rank();
  const int size = ranks.Size();
  RankReport mine{{}, result.files_written, result.files_skipped, result.bytes_written};
  for (uint64_t i = 0; i < written.size(); ++i)
    if (Mine(i, rank, size)) mine.files.push_back(ToJson(written[i]));
  const auto all = dist::GatherAs(ranks, mine);
  for (int r = 1; r < static_cast<int>(all.size()); ++r) {
    const RankReport& theirs = all[static_cast<size_t>(r)];
    uint64_t next = static_cast<uint64_t>(r);
    for (const auto& f : theirs.files) {
      written[next] = FileFromJson(f);
      next += static_cast<uint64_t>(size);
    }
    result.files_written += theirs.written;
    result.files_skipped += theirs.skipped;
    result.bytes_written += theirs.bytes;
  }
}

// The files of `files` (the whole plan's, in its order) that `rank` writes.
std::vector<formats::WrittenFile> RankFilesOf(std::vector<formats::WrittenFile> files, int rank,
                                              int ranks) {
  std::vector<formats::WrittenFile> own;
  for (uint64_t i = 0; i < files.size(); ++i)
    if (Mine(i, rank, ranks)) own.push_back(std::move(files[i]));
  return own;
}

// Rank 0, once every rank's writers are done (gathered): an upload still open is one a lost
// reply to CreateMultipartUpload started and its retry never knew of.
void PublishManifest(const Manifest& manifest, storage::Storage& storage,
                     const std::vector<std::string>& folders) {
  if (const size_t orphans = RemoveLeftovers(storage, folders); orphans > 0)
    LogInfo(
        fmt::format("aborted {} multipart upload(s) left open under {} (a retried request "
                    "whose first reply was lost)",
                    orphans, storage.Describe("")));
  WriteManifest(manifest, storage);
}

}  // namespace

GenerateResult Generate(const config::WorkloadConfig& config, storage::Storage& storage,
                        const GenerateOptions& options, dist::Communicator* ranks) {
  const int rank = ranks ? ranks->Rank() : 0;
  const int size = ranks ? ranks->Size() : 1;
  const DatasetPlan plan = PlanDataset(config);
  const auto format = formats::MakeFormat(config);
  const std::vector<std::string> folders = DatasetFolders(plan, format->description());
  const nlohmann::json key = GenerationKey(config);
  GenerateResult result;
  const double start = NowSeconds();

  // Rank 0 prepares the folder alone, before any rank writes into it.
  std::optional<DatasetLock> lock;
  if (rank == 0) {
    lock.emplace(storage);  // before anything else touches the folder
    result.files_removed =
        PrepareFolder(config, plan, format->description(), folders, key, storage, options, size);
  }
  WaitForRanks(ranks);

  // This rank's files: those already complete are kept, the others written.
  const auto existing = ReadManifest(storage);
  Journal journal(storage, JournalName(rank, size), key);
  RankFiles files = SortRankFiles(plan, KnownFiles(existing, journal), storage, rank, size);
  result.files_skipped = files.skipped;
  result.bytes_written = WriteFiles(config, plan, *format, files, journal, storage, options);
  result.files_written = files.pending.size();
  if (ranks && size > 1) GatherRanks(*ranks, files.written, result);
  // Keeps its own files only (for --verify): rank 0 has the whole list.
  if (rank != 0) files.written = RankFilesOf(std::move(files.written), rank, size);
  result.seconds = NowSeconds() - start;
  result.manifest.workload = config.workload_name;
  result.manifest.key = key;
  result.manifest.files = std::move(files.written);
  result.dataset_bytes = result.manifest.TotalBytes();
  if (rank == 0) PublishManifest(result.manifest, storage, folders);
  // The journals go once the manifest holds what they recorded.
  WaitForRanks(ranks);
  journal.Remove();

  if (options.verify) {  // each rank its own files
    const double verify_start = NowSeconds();
    Manifest own = result.manifest;
    if (rank == 0 && size > 1) own.files = RankFilesOf(result.manifest.files, rank, size);
    try {
      VerifyDataset(config, own, storage, options.threads, options.progress);
    } catch (const DamagedFile& e) {
      // One process only: under several ranks the others would not know to rewrite it.
      if (!options.replace || size > 1) throw;
      LogWarning(fmt::format("{}; --replace: rewriting it", e.what()));
      storage.Remove(e.Path());
      lock.reset();  // the rewrite takes it again
      GenerateOptions once = options;
      once.replace = false;  // a file damaged again is an error, not a loop
      return Generate(config, storage, once, ranks);
    }
    WaitForRanks(ranks);  // every rank's files checked before rank 0 says so
    result.verify_seconds = NowSeconds() - verify_start;
  }
  return result;
}

void VerifyDataset(const config::WorkloadConfig& config, const Manifest& manifest,
                   storage::Storage& storage, unsigned threads, bool show_progress) {
  const auto format = formats::MakeFormat(config);
  std::optional<Progress> progress;
  if (show_progress) progress.emplace("verify", manifest.files.size(), manifest.TotalBytes());
  ParallelFor(manifest.files.size(), threads, [&](uint64_t i) {
    const auto& file = manifest.files[i];
    if (!storage.FileSize(file.path))
      throw RuntimeError(
          fmt::format("verify: {} is missing; re-run datagen", storage.Describe(file.path)));
    try {
      format->Verify(file, storage);
    } catch (const Interrupted&) {
      throw;
    } catch (const IoError&) {
      throw;  // the storage failed, not the file
    } catch (const RuntimeError& e) {
      throw DamagedFile(fmt::format("{}; the file is damaged: `trainbench datagen --verify "
                                    "--replace` with the same settings rewrites it",
                                    e.what()),
                        file.path);
    }
    if (progress) progress->Add(1, file.size_bytes);
  });
}

}  // namespace trainbench::dataset
