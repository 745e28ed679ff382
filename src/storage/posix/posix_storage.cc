#include "storage/posix_storage.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/log.h"
#include "common/publish_file.h"
#include "storage/engines/uring_engine.h"
#include "storage/io_error.h"
#include "storage/posix/file_lock.h"

namespace trainbench::storage {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void Fail(const std::string& what, const std::string& path, int error_number) {
  ThrowIoError(what, path, error_number);
}

void MakeParents(const std::string& file) {
  const fs::path parent = fs::path(file).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) Fail("cannot create folder", parent.string(), ec.value());
}

std::string TempName(const std::string& full) {
  const fs::path p(full);
  return (p.parent_path() / ("." + p.filename().string() + PosixStorage::kTempSuffix)).string();
}

class PosixWriter : public AtomicWriter {
 public:
  PosixWriter(std::string final_path) : final_(std::move(final_path)), temp_(TempName(final_)) {
    MakeParents(final_);
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) Fail("cannot create", final_, errno);
  }
  ~PosixWriter() override {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
  }

  void Append(const void* data, size_t size) override {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
      const ssize_t n = ::write(fd_, p, size);
      if (n < 0) {
        if (errno == EINTR) continue;
        Fail(fmt::format("write failed at offset {} of", written_), final_, errno);
      }
      p += n;
      size -= static_cast<size_t>(n);
      written_ += static_cast<uint64_t>(n);
    }
  }

  void Sync() override {
    if (::fsync(fd_) != 0) Fail("fsync failed for", final_, errno);
  }

  void Commit() override {
    // close() can report a deferred write error (NFS, full disk): check it.
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) Fail("close failed for", final_, errno);
    if (const int error = PublishFile(temp_, final_); error != 0)
      Fail("cannot put into place", final_, error);
    committed_ = true;
  }

  uint64_t BytesWritten() const override { return written_; }

 private:
  std::string final_;
  std::string temp_;
  int fd_ = -1;
  uint64_t written_ = 0;
  bool committed_ = false;
};

// Holds the descriptor alone: a read engine keeps a handle open for each of a million files,
// where the path kept for messages took a hundred bytes more each. A message asks the
// kernel for the open file's path instead.
class PosixFile : public RandomAccessFile {
 public:
  explicit PosixFile(int fd) : fd_(fd) {}
  ~PosixFile() override { ::close(fd_); }

  size_t ReadAt(uint64_t offset, void* buffer, size_t size) override {
    size_t done = 0;
    auto* p = static_cast<char*>(buffer);
    while (done < size) {
      const ssize_t n = ::pread(fd_, p + done, size - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        const int error = errno;
        Fail(fmt::format("read failed at offset {} of", offset + done), Path(), error);
      }
      if (n == 0) break;
      done += static_cast<size_t>(n);
    }
    return done;
  }

  uint64_t Size() override {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      const int error = errno;
      Fail("cannot stat", Path(), error);
    }
    return static_cast<uint64_t>(st.st_size);
  }

 private:
  std::string Path() const {
    char target[4096];
    const std::string link = "/proc/self/fd/" + std::to_string(fd_);
    const ssize_t n = ::readlink(link.c_str(), target, sizeof(target));
    return n > 0 ? std::string(target, static_cast<size_t>(n))
                 : "descriptor " + std::to_string(fd_);
  }

  int fd_;
};

}  // namespace

PosixStorage::PosixStorage(std::string root) : root_(std::move(root)) {
  if (root_.empty()) root_ = ".";
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string PosixStorage::Full(const std::string& path) const {
  if (path.empty()) return root_;
  return root_ + "/" + path;
}

std::unique_ptr<AtomicWriter> PosixStorage::Create(const std::string& path) {
  return std::make_unique<PosixWriter>(Full(path));
}

std::unique_ptr<RandomAccessFile> PosixStorage::Open(const std::string& path,
                                                     const OpenOptions& options) {
  const std::string full = Full(path);
  int flags = O_RDONLY | O_CLOEXEC;
  if (options.direct) flags |= O_DIRECT;
  const int fd = ::open(full.c_str(), flags);
  if (fd < 0) Fail("cannot open", full, errno);
  ApplyPageCacheHint(fd, options.page_cache);
  return std::make_unique<PosixFile>(fd);
}

std::optional<uint64_t> PosixStorage::FileSize(const std::string& path) {
  struct stat st {};
  if (::stat(Full(path).c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return static_cast<uint64_t>(st.st_size);
}

void PosixStorage::Remove(const std::string& path) {
  if (::unlink(Full(path).c_str()) != 0 && errno != ENOENT)
    Fail("cannot remove", Full(path), errno);
}

namespace {

// Appends the regular files under the open directory `dir` (named `relative` from the root,
// "" for the root itself), each named by joining names, never by resolving paths: a million
// files cost a getdents per batch and one fstatat each, relative to the directory's fd, with
// no realpath or readlink (std::filesystem::relative ran both per file). Symbolic links to
// files count as their targets; links to folders are not followed, as
// recursive_directory_iterator did.
void ListFolder(int dir, const std::string& relative, const std::string& described,
                const std::function<void(ListEntry&&)>& each) {
  DIR* stream = ::fdopendir(dir);
  if (!stream) {
    const int error = errno;
    ::close(dir);
    Fail("cannot list", described, error);
  }
  struct Closer {
    DIR* d;
    ~Closer() { ::closedir(d); }
  } closer{stream};
  errno = 0;
  while (const dirent* entry = ::readdir(stream)) {
    const char* name = entry->d_name;
    if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
    std::string path = relative.empty() ? std::string(name) : relative + "/" + name;
    bool folder = entry->d_type == DT_DIR;
    bool file = false;
    uint64_t size = 0;
    if (!folder) {
      struct stat st {};
      if (::fstatat(dir, name, &st, 0) == 0) {
        file = S_ISREG(st.st_mode);
        size = static_cast<uint64_t>(st.st_size);
        // Only a real folder (d_type unknown on some file systems) is entered, not a link.
        folder = entry->d_type == DT_UNKNOWN && S_ISDIR(st.st_mode);
      }
    }
    if (file) {
      each({std::move(path), size});
    } else if (folder) {
      const int child = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (child < 0) Fail("cannot list", described + "/" + name, errno);
      ListFolder(child, path, described + "/" + name, each);
    }
    errno = 0;
  }
  if (errno != 0) Fail("cannot list", described, errno);
}

}  // namespace

// `dir` for the folder `prefix` names; -1 where there is none.
int PosixStorage::OpenListed(const std::string& prefix, std::string& relative,
                             std::string& start) const {
  relative = prefix;
  while (!relative.empty() && relative.back() == '/') relative.pop_back();
  start = Full(relative);
  const int dir = ::open(start.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0 && errno != ENOENT && errno != ENOTDIR) Fail("cannot list", start, errno);
  return dir;
}

std::vector<ListEntry> PosixStorage::List(const std::string& prefix) {
  std::vector<ListEntry> entries;
  std::string relative, start;
  const int dir = OpenListed(prefix, relative, start);
  if (dir < 0) return entries;
  ListFolder(dir, relative, start, [&](ListEntry&& e) { entries.push_back(std::move(e)); });
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  return entries;
}

void PosixStorage::ListEach(const std::string& prefix,
                            const std::function<void(const ListEntry&)>& each) {
  std::string relative, start;
  const int dir = OpenListed(prefix, relative, start);
  if (dir >= 0) ListFolder(dir, relative, start, [&](ListEntry&& e) { each(e); });
}

size_t PosixStorage::RemoveLeftovers(const std::string& prefix) {
  size_t removed = 0;
  for (const auto& entry : List(prefix)) {
    const std::string name = fs::path(entry.path).filename().string();
    const std::string suffix = kTempSuffix;
    if (name.size() > suffix.size() && name.front() == '.' &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      Remove(entry.path);
      ++removed;
    }
  }
  return removed;
}

std::string PosixStorage::Describe(const std::string& path) const { return Full(path); }

std::optional<std::string> PosixStorage::LocalPath(const std::string& path) const {
  return Full(path);
}

LockAttempt PosixStorage::TryLock(const std::string& path) { return TryLockFile(Full(path)); }

std::unique_ptr<ReadEngine> PosixStorage::OpenReadEngine(SharedObjectNames objects,
                                                         const ReadEngineOptions& options) {
  if (options.engine != "uring") return Storage::OpenReadEngine(std::move(objects), options);
  const uint64_t budget = OpenObjectBudget(objects->size());
  return MakeUringEngine(std::move(objects), root_, budget, options);
}

// Files stay open for the whole run (no open per read), so a dataset of thousands of
// files needs more than the usual soft limit of 1024 descriptors.
uint64_t PosixStorage::OpenObjectBudget(uint64_t wanted) {
  constexpr uint64_t kReserve = 256;  // stdio, logs, checkpoints, libraries
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return wanted;
  const rlim_t needed = static_cast<rlim_t>(wanted + kReserve);
  if (limit.rlim_cur < needed) {
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? needed : std::min(needed, limit.rlim_max);
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur >= needed) return wanted;
  const uint64_t budget =
      limit.rlim_cur > 2 * kReserve ? limit.rlim_cur - kReserve : limit.rlim_cur / 2;
  LogWarning(
      fmt::format("{} dataset files but at most {} open files (ulimit -n): {} stay open, "
                  "the others are opened for every read; raise the hard limit",
                  wanted, static_cast<uint64_t>(limit.rlim_cur), budget));
  return budget;
}

}  // namespace trainbench::storage
