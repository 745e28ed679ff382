#include "stage/range_journal.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/strings.h"
#include "stage/checksum.h"
#include "storage/io_error.h"

namespace trainbench::stage {
namespace {

void WriteAll(int fd, const std::string& text, const std::string& path) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw IoError(fmt::format("cannot write the stage journal '{}': {}; free space there or "
                                "choose another DEST",
                                path, std::strerror(errno)),
                    errno);
    done += static_cast<size_t>(n);
  }
}

}  // namespace

std::string JournalHeader(const JournalIdentity& identity) {
  std::string id = identity.id;
  for (char& c : id)
    if (c == '\n' || c == '\r') c = ' ';
  return fmt::format("trainbench-stage-journal v1 size={} chunk={} extract={} id={}", identity.size,
                     identity.chunk_size, identity.extract ? 1 : 0, id);
}

RangeJournal::RangeJournal(std::string path, JournalIdentity identity)
    : path_(std::move(path)), identity_(std::move(identity)) {
  std::ifstream in(path_, std::ios::binary);
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    const std::string all = text.str();
    const size_t eol = all.find('\n');
    const std::string header = all.substr(0, eol);
    if (eol == std::string::npos || header != JournalHeader(identity_)) {
      discard_reason_ = fmt::format(
          "its header '{}' does not match this object and chunk size "
          "('{}')",
          Printable(header), Printable(JournalHeader(identity_)));
    } else {
      resumed_ = true;
      size_t pos = eol + 1;
      // Only lines ending in '\n' count: the last one may have been cut by a kill.
      for (size_t end; (end = all.find('\n', pos)) != std::string::npos; pos = end + 1) {
        std::istringstream line(all.substr(pos, end - pos));
        std::string kind;
        line >> kind;
        if (kind == "c") {
          uint64_t index = 0;
          std::string hex;
          if (line >> index >> hex && IsHex(hex, 64) &&
              index * identity_.chunk_size < identity_.size)
            chunks_[index] = hex;
        } else if (kind == "p") {
          uint64_t index = 0, bytes = 0;
          if (line >> index >> bytes && index * identity_.chunk_size + bytes <= identity_.size &&
              bytes < identity_.chunk_size)
            partials_[index] = bytes;
        } else if (kind == "r") {
          uint64_t offset = 0;
          if (line >> offset && offset <= identity_.size) resume_offset_ = offset;
        }
      }
      for (const auto& [index, hex] : chunks_) partials_.erase(index);
    }
  }
  if (!resumed_) StartFresh();
}

void RangeJournal::StartFresh() {
  // A new header under a temporary name, renamed over any old journal: never a journal
  // whose header is half-written.
  const std::string tmp = path_ + ".tbtmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) storage::ThrowIoError("cannot create the stage journal", tmp, errno);
  try {
    WriteAll(fd, JournalHeader(identity_) + "\n", tmp);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(tmp.c_str(), path_.c_str()) != 0)
    throw IoError(fmt::format("cannot rename '{}' to '{}': {}", tmp, path_, std::strerror(errno)),
                  errno);
}

RangeJournal::~RangeJournal() = default;

void RangeJournal::AddChunk(uint64_t index, const std::string& sha256_hex) {
  chunks_[index] = sha256_hex;
  partials_.erase(index);
  pending_ += fmt::format("c {} {}\n", index, sha256_hex);
}

void RangeJournal::SetPartial(uint64_t index, uint64_t bytes) {
  const auto it = partials_.find(index);
  if (bytes == 0 || (it != partials_.end() && it->second == bytes)) return;
  partials_[index] = bytes;
  pending_ += fmt::format("p {} {}\n", index, bytes);
}

void RangeJournal::SetResumeOffset(uint64_t offset) {
  if (offset == resume_offset_) return;
  resume_offset_ = offset;
  pending_ += fmt::format("r {}\n", offset);
}

void RangeJournal::Sync(int data_fd) {
  if (pending_.empty() || removed_) return;
  if (data_fd >= 0 && ::fdatasync(data_fd) != 0)
    throw IoError(fmt::format("cannot flush the part file beside '{}' to disk: {}", path_,
                              std::strerror(errno)),
                  errno);
  // Opened for each sync, not held: a prefix of thousands of objects would otherwise hold a
  // descriptor per object (tests/s3/stage_many_test.sh runs under `ulimit -n 256`).
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) storage::ThrowIoError("cannot open the stage journal", path_, errno);
  try {
    WriteAll(fd, pending_, path_);
  } catch (...) {
    ::close(fd);
    throw;
  }
  pending_.clear();
  ::fsync(fd);
  ::close(fd);
}

void RangeJournal::Remove() {
  removed_ = true;
  pending_.clear();
  ::unlink(path_.c_str());
}

}  // namespace trainbench::stage
