// The dataset manifest (trainbench_manifest.json at the dataset root): what datagen
// wrote, so a run knows every file, size and sample extent without a rescan. While
// datagen runs, finished files are appended to a journal beside it (JSON lines), so an
// interrupted datagen resumes where it stopped.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "config/workload.h"
#include "formats/format.h"
#include "storage/storage.h"

namespace trainbench::dataset {

inline constexpr const char* kManifestName = "trainbench_manifest.json";
inline constexpr const char* kJournalName = ".trainbench_manifest.journal";

// The settings that decide a dataset's bytes: two runs with the same key write the same files.
nlohmann::json GenerationKey(const config::WorkloadConfig& config);

struct Manifest {
  std::string workload;
  nlohmann::json key;
  std::vector<formats::WrittenFile> files;  // in plan order
  uint64_t TotalBytes() const;
};

nlohmann::json ToJson(const formats::WrittenFile& file);
formats::WrittenFile FileFromJson(const nlohmann::json& j);

void WriteManifest(const Manifest& manifest, storage::Storage& storage);
// nullopt when there is none; RuntimeError when it exists but cannot be parsed.
std::optional<Manifest> ReadManifest(storage::Storage& storage);

// A manifest's head, read without keeping its files.
struct ManifestHead {
  std::string workload;
  nlohmann::json key;
  uint64_t num_files = 0;  // as the head says, before the files
};
// Reads the manifest a chunk at a time, handing its head to `on_head` (once, before the
// first file: WriteManifest puts the head first) and each file to `on_file` as it is
// parsed, in the manifest's order: a run checks the head before anything else and keeps
// its files compactly, never holding the manifest's text or a list of WrittenFiles.
// nullopt and no calls when there is none; RuntimeError when it is damaged.
std::optional<ManifestHead> ReadManifestFiles(
    storage::Storage& storage, const std::function<void(const ManifestHead&)>& on_head,
    const std::function<void(formats::WrittenFile&&)>& on_file);

// The journal a listed object belongs to: kJournalName or kJournalName.rank<N> itself, or
// on an object store the journal whose piece ("<name>/<8 digits>") it is; nullopt for any
// other object.
std::optional<std::string> JournalNameOf(const std::string& path);

// Append-only record of finished files. Thread-safe.
class Journal {
 public:
  // Opens (creating) the journal `name` at the dataset root; entries already there are
  // returned by Entries() if the journal's key and each entry's recorded settings match
  // `key`; the journal is restarted otherwise. The caller holds the DatasetLock.
  // On a file system it is one file, appended to. An object store cannot append: there it
  // is objects "<name>/<8 digits>", each holding the key and the entries recorded since the
  // one before, written at most every kObjectFlushSeconds (a kill loses at most that much
  // of the record: those files are written again).
  Journal(storage::Storage& storage, const std::string& name, const nlohmann::json& key);
  ~Journal();
  void Record(const formats::WrittenFile& file);
  const std::map<std::string, formats::WrittenFile>& Entries() const { return entries_; }
  // The dataset is complete and the manifest written: the journal goes.
  void Remove();

  static constexpr double kObjectFlushSeconds = 0.5;

 private:
  // Takes the entries of one journal text (key line, then entries); false when its key
  // differs from this one's.
  bool Load(const std::string& text, const nlohmann::json& key);
  void OpenLocal(const nlohmann::json& key);
  void OpenObjects(const nlohmann::json& key);
  // Object mode: writes the entries recorded since the last piece as the next piece.
  void FlushPiece(std::unique_lock<std::mutex>& lock);

  std::optional<std::string> path_;      // file mode
  storage::Storage* storage_ = nullptr;  // object mode
  std::string name_;
  std::string key_line_;
  std::string digest_;  // of the settings, recorded with each entry and checked on reading
  std::mutex mutex_;    // Record() is called from datagen's writer threads
  std::map<std::string, formats::WrittenFile> entries_;
  int fd_ = -1;
  std::string pending_;  // object mode: lines not yet in a piece
  uint64_t next_piece_ = 0;
  double last_flush_s_ = 0;
  bool removed_ = false;
};

}  // namespace trainbench::dataset
