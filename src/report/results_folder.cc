#include "report/results_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "storage/storage.h"

namespace trainbench::report {

std::string CreateResultsFolder(const std::string& output_folder, const std::string& workload,
                                const std::string& utc_stamp) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(output_folder, ec);
  if (ec)
    throw IoError(fmt::format("cannot create output.folder '{}': {}", output_folder, ec.message()),
                  ec.value());
  for (int i = 0;; ++i) {
    const std::string name =
        fmt::format("{}-{}{}", workload, utc_stamp, i ? fmt::format("-{}", i) : "");
    const fs::path path = fs::path(output_folder) / name;
    if (fs::create_directory(path, ec)) return path.string();
    if (ec)
      throw IoError(
          fmt::format("cannot create results folder '{}': {}", path.string(), ec.message()),
          ec.value());
  }
}

std::string OpenResumableFolder(const std::string& output_folder, const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path path = fs::path(output_folder) / name;
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec)
    throw IoError(fmt::format("cannot create results folder '{}': {}", path.string(), ec.message()),
                  ec.value());
  return path.string();
}

void AppendResultLine(const std::string& folder, const std::string& name, const std::string& line) {
  const std::string path = folder + "/" + name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(fmt::format("cannot open {}: {}", path, std::strerror(errno)), errno);
  const std::string text = line + "\n";
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                  ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  if (!ok) throw IoError(fmt::format("cannot append to {}: {}", path, std::strerror(error)), error);
}

void WriteResultFile(const std::string& folder, const std::string& name, const std::string& text) {
  auto storage = storage::OpenStorage(folder);
  auto out = storage->Create(name);
  out->Append(text.data(), text.size());
  out->Commit();
}

}  // namespace trainbench::report
