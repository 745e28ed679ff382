#include "stage/tar/tar_member_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>

#include "common/error.h"
#include "common/publish_file.h"

namespace trainbench::stage {
namespace {

// Small pieces (network chunks, or a member split over chunks) are gathered into writes of up
// to this; a piece at least kDirectWrite long, or a whole member in one piece, is written from
// the input without a copy.
constexpr size_t kBufferBytes = 1 << 20;
constexpr size_t kDirectWrite = 256 << 10;
constexpr std::string_view kPartialSuffix = ".tb-partial";
// NAME_MAX of Linux file systems: a longer temporary name could not be created.
constexpr size_t kMaxNameBytes = 255;

std::string TempPath(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (1 + base.size() + kPartialSuffix.size() <= kMaxNameBytes) {
    return folder + "." + base + std::string(kPartialSuffix);
  }
  // A name near the limit: a hash of it keeps the temporary one short and still the same on a
  // resumed run, which then overwrites a partial left by a killed one.
  return fmt::format("{}.{:016x}{}", folder, std::hash<std::string>{}(base), kPartialSuffix);
}

}  // namespace

TarMemberFile::TarMemberFile() = default;

TarMemberFile::~TarMemberFile() { Abort(); }

void TarMemberFile::Open(const std::string& path, std::string what) {
  Abort();
  path_ = path;
  temp_path_ = TempPath(path);
  what_ = std::move(what);
  buffered_ = 0;
  written_ = 0;
  // O_NOFOLLOW: never write through a link someone planted under the temporary name.
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd_ < 0) Fail("cannot create", errno);
}

void TarMemberFile::Write(const char* data, size_t size, bool last_piece) {
  if (size >= kDirectWrite || (last_piece && buffered_ == 0)) {
    Flush();
    WriteAll(data, size);
    return;
  }
  if (buffered_ + size > kBufferBytes) Flush();
  if (!buffer_) buffer_ = std::make_unique<char[]>(kBufferBytes);
  std::memcpy(buffer_.get() + buffered_, data, size);
  buffered_ += size;
}

uint64_t TarMemberFile::Commit(const uint64_t* expected_bytes) {
  Flush();
  if (expected_bytes && written_ != *expected_bytes) {
    const std::string message = fmt::format(
        "{}: {} bytes were written but its header says {}; the extractor lost bytes (a bug): "
        "report it, and extract this archive with tar meanwhile",
        what_, written_, *expected_bytes);
    Abort();
    throw RuntimeError(message);
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error_number = errno;
    ::unlink(temp_path_.c_str());
    Fail("cannot close", error_number);
  }
  if (const int error_number = PublishFile(temp_path_, path_); error_number != 0) {
    ::unlink(temp_path_.c_str());
    Fail(fmt::format("cannot put into place as '{}'", path_), error_number);
  }
  return written_;
}

void TarMemberFile::Abort() noexcept {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  ::unlink(temp_path_.c_str());
}

void TarMemberFile::Flush() {
  if (buffered_ == 0) return;
  const size_t size = buffered_;
  buffered_ = 0;
  WriteAll(buffer_.get(), size);
}

void TarMemberFile::WriteAll(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail("cannot write", errno);
    }
    data += n;
    size -= static_cast<size_t>(n);
    written_ += static_cast<uint64_t>(n);
  }
}

void TarMemberFile::Fail(const std::string& doing, int error_number) {
  const std::string message = fmt::format(
      "{}: {} '{}' at byte {}: {} (check that the destination is writable and has space, then "
      "resume)",
      what_, doing, temp_path_, written_, std::strerror(error_number));
  Abort();
  throw IoError(message, error_number);
}

}  // namespace trainbench::stage
