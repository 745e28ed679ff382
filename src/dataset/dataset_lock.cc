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

}  // namespace trainbench::dataset
