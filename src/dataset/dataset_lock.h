// One writer per dataset folder. Two datagens (or a run that generates) writing one folder
// with different settings interleave files and journal lines into a dataset that later
// passes for whole; the second must refuse at once instead. The lock is flock(2) on
// .trainbench.lock in the folder: the kernel releases it when the holder exits, however it
// exits, so a crashed datagen never leaves the folder locked. The file records the holder's
// pid for the message. Storage without a local folder (object stores) is not locked here.
// Not thread-safe: one per Generate call.
#pragma once

#include "storage/storage.h"

namespace trainbench::dataset {

inline constexpr const char* kLockName = ".trainbench.lock";

class DatasetLock {
 public:
  // Throws RuntimeError naming the folder and the holder's pid when another process holds it.
  explicit DatasetLock(storage::Storage& storage);
  ~DatasetLock();
  DatasetLock(const DatasetLock&) = delete;
  DatasetLock& operator=(const DatasetLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace trainbench::dataset
