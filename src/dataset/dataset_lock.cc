#include "dataset/dataset_lock.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "common/error.h"
#include "storage/io_error.h"

namespace trainbench::dataset {

DatasetLock::DatasetLock(storage::Storage& storage) {
  const auto path = storage.LocalPath(kLockName);
  if (!path) return;
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(*path).parent_path(), error);
  if (error) storage::ThrowIoError("cannot create the folder", storage.Describe(""), error.value());
  fd_ = ::open(path->c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) storage::ThrowIoError("cannot open the lock file", *path, errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int lock_errno = errno;
    char holder[32] = {};
    [[maybe_unused]] const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
    ::close(fd_);
    fd_ = -1;
    if (lock_errno != EWOULDBLOCK) storage::ThrowIoError("cannot lock", *path, lock_errno);
    std::string pid(holder);
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    throw RuntimeError(fmt::format(
        "the dataset at '{}' is being written by another trainbench (pid {}): wait for it to "
        "finish, or choose another dataset.data_folder",
        storage.Describe(""), pid.empty() ? "unknown" : pid));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0)
    storage::ThrowIoError("cannot write the lock file", *path, errno);
}

DatasetLock::~DatasetLock() {
  // Closing releases the lock; the file stays, emptied (removing it would race a new
  // holder, and two datasets written alike stay alike).
  if (fd_ < 0) return;
  [[maybe_unused]] const int ignored = ::ftruncate(fd_, 0);
  ::close(fd_);
}

}  // namespace trainbench::dataset
