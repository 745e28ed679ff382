// One writer per dataset folder. Two datagens (or a run that generates) writing one folder
// with different settings interleave files and journal lines into a dataset that later
// passes for whole; the second must refuse at once instead. The lock is .trainbench.lock
// in the folder, taken through the storage: flock(2) on a file system (storage/file_lock.h),
// a lease object on S3 (storage/s3_lease_lock.h). Both name the holder for the message.
// Not thread-safe: one per Generate call.
#pragma once

#include <memory>

#include "storage/storage.h"

namespace trainbench::dataset {

inline constexpr const char* kLockName = ".trainbench.lock";

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

}  // namespace trainbench::dataset
