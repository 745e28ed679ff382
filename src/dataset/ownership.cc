#include "dataset/ownership.h"

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "dataset/dataset_lock.h"
#include "dataset/manifest.h"
#include "storage/posix_storage.h"

namespace trainbench::dataset {
namespace {

void AddFile(const formats::WrittenFile& f, std::set<std::string>& named) {
  named.insert(f.path);
  named.insert(f.companions.begin(), f.companions.end());
}

// A journal (kJournalName, or kJournalName.rankN under mpirun; on an object store each is a
// folder of pieces, kJournalName/NNNNNNNN, each a key line and entries): every entry was written
// by trainbench whatever settings it was written with. A torn last line ends it.
void AddJournal(storage::Storage& storage, const std::string& path, std::set<std::string>& named) {
  const auto bytes = storage::ReadAll(storage, path);
  std::istringstream in(std::string(bytes.begin(), bytes.end()));
  std::string line;
  std::getline(in, line);  // the generation key
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    try {
      AddFile(FileFromJson(nlohmann::json::parse(line)), named);
    } catch (...) {
      break;
    }
  }
}

}  // namespace

bool IsWriterTemporary(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  return name.size() > 1 && name.front() == '.' &&
         name.ends_with(storage::PosixStorage::kTempSuffix);
}

bool IsBookkeeping(const std::string& path) {
  const std::string base = path.substr(path.rfind('/') + 1);
  return base == kManifestName || base == kLockName ||
         path.find(kJournalName) != std::string::npos ||
         path.find(kReadersPrefix) != std::string::npos;
}

DatasetObjects FindDatasetObjects(storage::Storage& storage) {
  const auto entries = storage.List("");
  std::set<std::string> named = {kManifestName, kLockName};
  DatasetObjects result;
  if (const auto manifest = ReadManifest(storage)) {
    result.has_dataset = true;
    for (const auto& f : manifest->files) AddFile(f, named);
  }
  for (const auto& e : entries) {
    if (!JournalNameOf(e.path)) continue;
    result.has_dataset = true;
    named.insert(e.path);
    AddJournal(storage, e.path, named);
  }
  for (const auto& e : entries) {
    // A reading job's mark is its own to remove (dataset_lock.h's ReaderMark).
    if (IsWriterTemporary(e.path) || e.path.rfind(kReadersPrefix, 0) == 0) continue;
    (named.count(e.path) ? result.ours : result.foreign).push_back(e);
  }
  return result;
}

}  // namespace trainbench::dataset
