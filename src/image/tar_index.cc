#include "image/tar_index.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "common/error.h"

namespace trainbench::image {

namespace {

constexpr int kMaxDepth = 4;  // tars in tars in tars: far more than ImageNet's two levels

bool EndsWithTar(const std::string& name) {
  return name.size() > 4 && (name.compare(name.size() - 4, 4, ".tar") == 0 ||
                             name.compare(name.size() - 4, 4, ".TAR") == 0);
}

// [begin, end) of the file, as libarchive's input. Each read fetches `read_size` bytes from
// the position; a header that a skip lands on inside what was fetched is served from there,
// so on remote storage one ranged GET covers the headers of several small members.
struct Range {
  storage::RandomAccessFile* file;
  uint64_t position;
  uint64_t end;
  size_t read_size;
  std::string buffer;
  uint64_t buffer_start = 0;  // where buffer's bytes are in the file
  std::string read_error;     // why a read failed (libarchive then reports a fatal error)
};

la_ssize_t ReadRange(archive* a, void* range_pointer, const void** out) {
  auto* range = static_cast<Range*>(range_pointer);
  if (range->position >= range->buffer_start &&
      range->position < range->buffer_start + range->buffer.size()) {
    const size_t at = static_cast<size_t>(range->position - range->buffer_start);
    const size_t n = range->buffer.size() - at;
    range->position += n;
    *out = range->buffer.data() + at;
    return static_cast<la_ssize_t>(n);
  }
  const uint64_t want = std::min<uint64_t>(range->read_size, range->end - range->position);
  range->buffer.resize(want);
  try {
    const size_t got = range->file->ReadAt(range->position, range->buffer.data(), want);
    range->buffer.resize(got);
    range->buffer_start = range->position;
    range->position += got;
    *out = range->buffer.data();
    return static_cast<la_ssize_t>(got);
  } catch (const std::exception& error) {
    range->read_error =
        fmt::format("reading bytes {}-{} failed: {}", range->position,
                    range->position + std::max<uint64_t>(want, 1) - 1, error.what());
    archive_set_error(a, EIO, "%s", error.what());
    return ARCHIVE_FATAL;
  }
}

la_int64_t SkipRange(archive*, void* range_pointer, la_int64_t request) {
  auto* range = static_cast<Range*>(range_pointer);
  const uint64_t skip = std::min<uint64_t>(request, range->end - range->position);
  range->position += skip;
  return static_cast<la_int64_t>(skip);
}

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};

// The same reader rules as stage --extract (stage/tar/tar_extractor.cc): libarchive's tar
// (ustar, GNU, pax), its checks; regular files only, links and the rest left out. Unlike
// there, no gzip: samples are read in place at their offsets.
void List(storage::RandomAccessFile& file, uint64_t begin, uint64_t end, size_t read_size,
          const std::string& describe, const std::string& enclosing, int depth,
          std::vector<TarMember>& out) {
  std::unique_ptr<archive, ArchiveFree> a(archive_read_new());
  if (!a) throw RuntimeError(fmt::format("{}: libarchive could not allocate a reader", describe));
  archive_read_support_format_tar(a.get());
  Range range{&file, begin, end, read_size, {}, 0, {}};
  archive_read_set_read_callback(a.get(), &ReadRange);
  archive_read_set_skip_callback(a.get(), &SkipRange);
  archive_read_set_callback_data(a.get(), &range);
  auto fail = [&](uint64_t at) {
    // A read that failed (an S3 GET refused, a cut connection) says nothing of the archive:
    // its own error names the cause, not "corrupt".
    if (!range.read_error.empty())
      return RuntimeError(
          fmt::format("{}: cannot list its tar members: {}", describe, range.read_error));
    const char* reason = archive_error_string(a.get());
    return RuntimeError(fmt::format("{}: not a tar archive or corrupt (at byte {}: {})", describe,
                                    at, reason != nullptr ? reason : "no reason given"));
  };
  if (archive_read_open1(a.get()) != ARCHIVE_OK) throw fail(begin);
  for (;;) {
    archive_entry* entry = nullptr;
    const int status = archive_read_next_header(a.get(), &entry);
    if (status == ARCHIVE_EOF) return;
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN) {
      throw fail(begin + static_cast<uint64_t>(archive_filter_bytes(a.get(), 0)));
    }
    if (archive_entry_filetype(entry) != AE_IFREG || archive_entry_hardlink(entry) != nullptr)
      continue;  // folders, links, devices
    const char* raw_name = archive_entry_pathname(entry);
    const std::string name = raw_name != nullptr ? raw_name : "";
    // Right after its header(s), the reader is at the member's data.
    const uint64_t data = begin + static_cast<uint64_t>(archive_filter_bytes(a.get(), 0));
    const uint64_t size = static_cast<uint64_t>(archive_entry_size(entry));
    if (data + size > end) {
      throw RuntimeError(
          fmt::format("{}: tar member '{}' at byte {} runs past the end", describe, name, data));
    }
    if (EndsWithTar(name) && depth < kMaxDepth) {
      List(file, data, data + size, read_size, describe + ":" + name, name, depth + 1, out);
    } else {
      out.push_back({name, enclosing, data, size});
    }
  }
}

}  // namespace

std::vector<TarMember> ListTar(storage::RandomAccessFile& file, uint64_t begin, uint64_t end,
                               const std::string& describe, size_t read_size) {
  std::vector<TarMember> members;
  List(file, begin, end, std::max<size_t>(read_size, 512), describe, "", 0, members);
  return members;
}

}  // namespace trainbench::image
