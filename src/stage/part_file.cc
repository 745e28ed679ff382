#include "stage/part_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "common/publish_file.h"
#include "storage/io_error.h"

namespace trainbench::stage {
namespace {

// Fsyncs and publishes part as final (link, or rename: common/publish_file.h), then fsyncs the
// folder: the final name appears only for whole, verified bytes, and stays after a crash.
void PublishPart(int fd, const std::string& part, const std::string& final_path) {
  if (::fsync(fd) != 0)
    throw IoError(fmt::format("cannot flush '{}' to disk: {}", part, std::strerror(errno)), errno);
  if (const int error = PublishFile(part, final_path); error != 0)
    throw IoError(fmt::format("cannot put '{}' into place as '{}': {}", part, final_path,
                              std::strerror(error)),
                  error);
  const int dir =
      ::open(std::filesystem::path(final_path).parent_path().c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace

void OpenPart(FetchItem& item, bool truncate) {
  item.fd = ::open(item.part_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (item.fd < 0) storage::ThrowIoError("cannot open", item.part_path, errno);
  if (truncate &&
      (::ftruncate(item.fd, 0) != 0 || ::ftruncate(item.fd, static_cast<off_t>(item.size)) != 0))
    storage::ThrowIoError(fmt::format("cannot size to {} bytes", item.size), item.part_path, errno);
}

void ClosePart(FetchItem& item) {
  if (item.fd >= 0) ::close(item.fd);
  item.fd = -1;
}

PartFilesCloser::~PartFilesCloser() {
  for (auto& item : items_) ClosePart(item);
}

void PublishStaged(FetchItem& item, RangeJournal& journal, ObjectResult& r) {
  const std::string final_path = item.part_path.substr(0, item.part_path.size() - 5);
  PublishPart(item.fd, item.part_path, final_path);
  ClosePart(item);
  journal.Remove();
  r.status = "staged";
}

}  // namespace trainbench::stage
