#include "storage/posix/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <filesystem>
#include <string>

#include "common/host_name.h"
#include "storage/io_error.h"

namespace trainbench::storage {
namespace {

class FileLock : public StorageLock {
 public:
  explicit FileLock(int fd) : fd_(fd) {}
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() override {
    // Closing releases the lock. The file stays, emptied: removing it would race a new
    // holder that opened it already.
    [[maybe_unused]] const int ignored = ::ftruncate(fd_, 0);
    ::close(fd_);
  }

 private:
  int fd_;
};

}  // namespace

LockAttempt TryLockFile(const std::string& path) {
  std::error_code error;
  const auto folder = std::filesystem::path(path).parent_path();
  std::filesystem::create_directories(folder, error);
  if (error) ThrowIoError("cannot create the folder", folder.string(), error.value());
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) ThrowIoError("cannot open the lock file", path, errno);
  LockAttempt attempt;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int lock_errno = errno;
    char holder[128] = {};
    [[maybe_unused]] const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    ::close(fd);
    if (lock_errno != EWOULDBLOCK) ThrowIoError("cannot lock", path, lock_errno);
    attempt.holder = holder;
    while (!attempt.holder.empty() &&
           std::isspace(static_cast<unsigned char>(attempt.holder.back())))
      attempt.holder.pop_back();
    if (attempt.holder.empty()) attempt.holder = "an unknown process";
    // Earlier versions wrote the bare pid.
    if (attempt.holder.find_first_not_of("0123456789") == std::string::npos)
      attempt.holder = "pid " + attempt.holder;
    return attempt;
  }
  attempt.lock = std::make_unique<FileLock>(fd);
  const std::string holder = "pid " + std::to_string(::getpid()) + " on " + LocalHostName() + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, holder.data(), holder.size(), 0) < 0)
    ThrowIoError("cannot write the lock file", path, errno);
  return attempt;
}

}  // namespace trainbench::storage
