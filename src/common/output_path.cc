#include "common/output_path.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include "common/error.h"

namespace trainbench {

namespace fs = std::filesystem;

namespace {

// The folders CheckWritableFolder made, outermost first (the job's checks run on one
// thread, but the lock costs nothing and keeps a second caller safe).
std::mutex made_mutex;
std::vector<fs::path> made_folders;

// Creates and removes a probe file: access(2) says nothing of read-only mounts or quotas.
// Named per process and per probe, so that threads probing one folder at once (a mix's jobs)
// never meet.
void Probe(const fs::path& folder, const std::string& what, const std::string& shown) {
  static std::atomic<unsigned> serial{0};
  const fs::path probe = folder / fmt::format(".trainbench-write-test.{}.{}", ::getpid(), serial++);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    throw UsageError(fmt::format("{} {}: cannot write in {}: {}; choose a writable folder", what,
                                 shown, folder.string(), std::strerror(errno)));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace

void CheckWritableFolder(const std::string& folder, const std::string& what) {
  const fs::path path = folder.empty() ? fs::path(".") : fs::path(folder);
  std::error_code error;
  std::vector<fs::path> missing;  // innermost first
  for (fs::path p = path; !p.empty() && !fs::exists(p, error); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  fs::create_directories(path, error);
  {
    const std::lock_guard<std::mutex> lock(made_mutex);
    for (auto p = missing.rbegin(); p != missing.rend(); ++p)
      if (fs::is_directory(*p)) made_folders.push_back(*p);
  }
  if (error || !fs::is_directory(path))
    throw UsageError(fmt::format("{} {}: cannot create the folder: {}; choose a writable folder",
                                 what, folder, error ? error.message() : "not a folder"));
  Probe(path, what, folder);
}

std::vector<std::string> RemoveEmptyFoldersMadeByChecks() {
  const std::lock_guard<std::mutex> lock(made_mutex);
  std::vector<std::string> removed;
  for (auto p = made_folders.rbegin(); p != made_folders.rend(); ++p)
    if (::rmdir(p->c_str()) == 0) removed.push_back(p->string());
  made_folders.clear();
  return removed;
}

void CheckWritableFile(const std::string& path, const std::string& what) {
  const fs::path file(path);
  std::error_code error;
  if (fs::is_directory(file, error))
    throw UsageError(fmt::format("{} {}: is a folder; give a file name", what, path));
  const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, error))
    throw UsageError(fmt::format("{} {}: the folder {} does not exist; create it first", what, path,
                                 folder.string()));
  Probe(folder, what, path);
}

}  // namespace trainbench
