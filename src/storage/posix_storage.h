// Storage on a local (or mounted network) file system. Writes go to a temporary name
// beside the target (".name.tbtmp") and are renamed into place on Commit, so an
// interrupted write leaves no partial file under a final name.
#pragma once

#include "storage/storage.h"

namespace trainbench::storage {

class PosixStorage : public Storage {
 public:
  explicit PosixStorage(std::string root);

  std::unique_ptr<AtomicWriter> Create(const std::string& path) override;
  std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                         const OpenOptions& options) override;
  std::optional<uint64_t> FileSize(const std::string& path) override;
  void Remove(const std::string& path) override;
  std::vector<ListEntry> List(const std::string& prefix) override;
  void ListEach(const std::string& prefix,
                const std::function<void(const ListEntry&)>& each) override;
  size_t RemoveLeftovers(const std::string& prefix) override;
  std::string Describe(const std::string& path) const override;
  std::optional<std::string> LocalPath(const std::string& path) const override;
  LockAttempt TryLock(const std::string& path) override;
  // Adds `uring` to the engines every storage has.
  std::vector<std::string> ReadEngines() const override { return {"pread", "uring", "null"}; }
  std::unique_ptr<ReadEngine> OpenReadEngine(SharedObjectNames objects,
                                             const ReadEngineOptions& options) override;
  // Raises the soft limit of open files (ulimit -n) as far as the hard limit allows.
  uint64_t OpenObjectBudget(uint64_t wanted) override;

  static constexpr const char* kTempSuffix = ".tbtmp";

 private:
  std::string Full(const std::string& path) const;
  // The folder `prefix` names, opened, with its relative and full path; -1 where none is.
  int OpenListed(const std::string& prefix, std::string& relative, std::string& start) const;
  std::string root_;
};

}  // namespace trainbench::storage
