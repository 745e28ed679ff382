#include "dataset/dataset_lock.h"

#include <fmt/format.h>

#include "common/error.h"

namespace trainbench::dataset {

DatasetLock::DatasetLock(storage::Storage& storage) {
  auto attempt = storage.TryLock(kLockName);
  if (!attempt.lock && !attempt.holder.empty())
    throw RuntimeError(fmt::format(
        "the dataset at '{}' is being written by another trainbench ({}): wait for it to "
        "finish, or choose another dataset.data_folder",
        storage.Describe(""), attempt.holder));
  lock_ = std::move(attempt.lock);
}

void DatasetLock::RefuseIfBeingWritten(storage::Storage& storage) {
  if (!storage.FileSize(kLockName).has_value()) return;
  storage::LockAttempt attempt;
  try {
    attempt = storage.TryLock(kLockName);
  } catch (const IoError&) {
    return;  // a read-only dataset: no writer can be at work there either
  }
  if (!attempt.lock && !attempt.holder.empty())
    throw RuntimeError(fmt::format(
        "the dataset at '{}' is being written by {} (trainbench datagen): wait for it to "
        "finish, then run again",
        storage.Describe(""), attempt.holder));
}

}  // namespace trainbench::dataset
