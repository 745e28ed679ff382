#include "dataset/dataset_lock.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "common/error.h"
#include "common/host_name.h"

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
  // Another reader's probe holds the lock for an instant too (two runs, or a mix's jobs,
  // starting together): a writer holds it throughout, so a few tries tell them apart.
  constexpr int kTries = 5;
  constexpr auto kBetweenTries = std::chrono::milliseconds(20);
  storage::LockAttempt attempt;
  for (int i = 0; i < kTries; ++i) {
    if (i > 0) std::this_thread::sleep_for(kBetweenTries);
    try {
      attempt = storage.TryLock(kLockName);
    } catch (const IoError&) {
      return;  // a read-only dataset: no writer can be at work there either
    }
    if (attempt.lock || attempt.holder.empty()) return;
  }
  if (!attempt.lock && !attempt.holder.empty())
    throw RuntimeError(fmt::format(
        "the dataset at '{}' is being written by {} (trainbench datagen): wait for it to "
        "finish, then run again",
        storage.Describe(""), attempt.holder));
}

ReaderMark::ReaderMark(storage::Storage& storage) : storage_(storage) {
  static std::atomic<int> serial{0};
  path_ = fmt::format("{}{}.{}.{}", kReadersPrefix, LocalHostName(), ::getpid(), serial++);
  try {
    lock_ = storage_.TryLockFreshName(path_).lock;
  } catch (const IoError& e) {
    // A read-only dataset: no mark, and no clean can remove it either.
    static_cast<void>(e);
  }
}

ReaderMark::~ReaderMark() {
  if (!lock_) return;
  // Removed while held: a clean that finds the name free meanwhile takes it for a dead
  // reader's and removes it too, which is what this does. On S3 the lease removes itself.
  if (storage_.LocalPath(path_)) {
    try {
      storage_.Remove(path_);
    } catch (const std::exception&) {
    }
  }
  lock_.reset();
  if (const auto folder = storage_.LocalPath(kReadersPrefix))
    ::rmdir(folder->c_str());  // the last reader's: fails, harmlessly, while others read
}

std::vector<std::string> ReaderMark::LiveReaders(storage::Storage& storage) {
  std::vector<std::string> live;
  std::vector<storage::ListEntry> marks;
  try {
    // The folder's name without its '/': S3's List adds one to the prefix it is given.
    const std::string folder = kReadersPrefix;
    marks = storage.List(folder.substr(0, folder.size() - 1));
  } catch (const std::exception&) {
    return live;  // no readers' folder
  }
  for (const auto& mark : marks) {
    if (mark.path.rfind(kReadersPrefix, 0) != 0) continue;
    storage::LockAttempt attempt;
    try {
      attempt = storage.TryLock(mark.path);
    } catch (const IoError&) {
      continue;
    }
    if (attempt.lock) {  // its reader is gone: the mark goes
      try {
        storage.Remove(mark.path);
      } catch (const std::exception&) {
      }
      continue;
    }
    if (!attempt.holder.empty()) live.push_back(attempt.holder);
  }
  if (live.empty())
    if (const auto folder = storage.LocalPath(kReadersPrefix)) ::rmdir(folder->c_str());
  return live;
}

}  // namespace trainbench::dataset
