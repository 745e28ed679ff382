// One writer per dataset folder. Two datagens (or a run that generates) writing one folder
// with different settings interleave files and journal lines into a dataset that later
// passes for whole; the second must refuse at once instead. The lock is .trainbench.lock
// in the folder, taken through the storage: flock(2) on a file system (storage/file_lock.h),
// a lease object on S3 (storage/s3_lease_lock.h). Both name the holder for the message.
// Not thread-safe: one per Generate call.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::dataset {

inline constexpr const char* kLockName = ".trainbench.lock";
// Where readers mark themselves: one lock per reading process under this prefix.
inline constexpr const char* kReadersPrefix = ".trainbench.readers/";

class DatasetLock {
 public:
  // Throws RuntimeError naming the folder and the holder (pid and host) when another holds it.
  explicit DatasetLock(storage::Storage& storage);

  // For a reader (`run`): throws RuntimeError naming the holder (pid and host) when a writer
  // holds the lock now, so a half-written dataset is not taken for a damaged one. Takes and
  // drops the lock only where a writer made one; a folder it cannot lock (read-only) passes.
  static void RefuseIfBeingWritten(storage::Storage& storage);

 private:
  std::unique_ptr<storage::StorageLock> lock_;
};

// A reader's mark (`run` while it reads): clean must not remove a dataset under a job that
// reads it. Each reading process holds a lock of its own, .trainbench.readers/<host>.<pid>.<n>,
// taken through the storage as the writer's is (flock on a file system: gone however the
// reader ends; a renewed lease on S3: expires when its holder died), and removed when the
// reader ends. A folder the reader cannot write (read-only) gets no mark: nothing can remove
// it there either.
class ReaderMark {
 public:
  explicit ReaderMark(storage::Storage& storage);
  ~ReaderMark();
  ReaderMark(const ReaderMark&) = delete;
  ReaderMark& operator=(const ReaderMark&) = delete;

  bool held() const { return lock_ != nullptr; }

  // The readers holding a mark on `storage` now ("pid N on HOST" each). The marks of readers
  // that are gone (their lock free, or their lease expired) are removed on the way.
  static std::vector<std::string> LiveReaders(storage::Storage& storage);

 private:
  storage::Storage& storage_;
  std::string path_;
  std::unique_ptr<storage::StorageLock> lock_;
};

}  // namespace trainbench::dataset
