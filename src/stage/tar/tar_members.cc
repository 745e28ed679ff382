#include "stage/tar/tar_members.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>

#include "common/error.h"
#include "common/log.h"
#include "common/strings.h"
#include "stage/tar/tar_path.h"
#include "stage/tar/tar_reader.h"

namespace trainbench::stage {
namespace {

constexpr std::string_view kNestedSuffix = ".tar";

std::string_view KindOf(const archive_entry* entry) {
  if (archive_entry_hardlink(const_cast<archive_entry*>(entry)) != nullptr) return "hard link";
  switch (archive_entry_filetype(const_cast<archive_entry*>(entry))) {
    case AE_IFLNK:
      return "symbolic link";
    case AE_IFCHR:
      return "character device";
    case AE_IFBLK:
      return "block device";
    case AE_IFIFO:
      return "FIFO";
    case AE_IFSOCK:
      return "socket";
    default:
      return "member of an unknown type";
  }
}

// Where the tar reader `a` is in its (uncompressed) tar: past the last whole member.
uint64_t ReaderPosition(archive* a) { return static_cast<uint64_t>(archive_filter_bytes(a, 0)); }

// A nested tar's input: the bytes of its member in the outer tar.
struct NestedSource {
  archive* outer;
  std::string what;
};

la_ssize_t ReadNested(archive* a, void* source_pointer, const void** buffer) {
  auto* source = static_cast<NestedSource*>(source_pointer);
  size_t size = 0;
  la_int64_t offset = 0;
  const int status = archive_read_data_block(source->outer, buffer, &size, &offset);
  if (status == ARCHIVE_EOF) return 0;
  if (status < ARCHIVE_WARN) {
    archive_set_error(a, EIO, "%s", ArchiveError(source->outer).c_str());
    return ARCHIVE_FATAL;
  }
  return static_cast<la_ssize_t>(size);
}

}  // namespace

TarMembers::TarMembers(std::string dest, TarOptions options, uint64_t start_offset, TarStats& stats)
    : dest_(std::move(dest)),
      options_(options),
      start_offset_(start_offset),
      stats_(stats),
      resume_offset_(start_offset) {}

void TarMembers::NoteInput(const char* data, size_t size) {
  if (!saw_data_) saw_data_ = std::any_of(data, data + size, [](char c) { return c != 0; });
}

void TarMembers::ExtractAll(archive* a) { ExtractTar(a, dest_, "", true); }

// Every member of the tar `a` under `folder`; `outer` names the nested tar it is, as
// "'NAME' (its header at archive offset N)" ("" at the top).
void TarMembers::ExtractTar(archive* a, const std::string& folder, const std::string& outer,
                            bool top) {
  for (;;) {
    archive_entry* entry = nullptr;
    const uint64_t before = ReaderPosition(a);
    const int status = archive_read_next_header(a, &entry);
    if (status == ARCHIVE_EOF) return;
    const la_int64_t header_at = archive_read_header_position(a);
    const uint64_t at = header_at >= 0 && status >= ARCHIVE_WARN ? header_at : before;
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN) {
      if (top && !saw_data_) return;  // no input, or zeros only: the end blocks (resumed at)
      throw RuntimeError(
          fmt::format("tar header at {}: {}{}", Place(at, outer), ArchiveError(a), ResumeHint()));
    }
    ExtractEntry(a, entry, folder, Place(at, outer), top);
  }
}

// One member, its header at `place`: a folder made, a file written, a nested tar extracted,
// anything else skipped.
void TarMembers::ExtractEntry(archive* a, archive_entry* entry, const std::string& folder,
                              const std::string& place, bool top) {
  const char* raw_name = archive_entry_pathname(entry);
  const std::string name = raw_name != nullptr ? raw_name : "";
  const std::string what = fmt::format("tar member '{}' at {}", Printable(name), place);
  const std::string path = SafeMemberPath(name, place);
  const mode_t type = archive_entry_filetype(entry);
  if (archive_entry_hardlink(entry) != nullptr || (type != AE_IFREG && type != AE_IFDIR)) {
    CountSkipped(what, entry);
    if (top) SkipRest(a, what);
    return;
  }
  if (type == AE_IFDIR) {
    if (!path.empty()) EnsureFolder(folder + "/" + path, what);
    if (top) SkipRest(a, what);
    return;
  }
  if (path.empty()) {
    throw RuntimeError(fmt::format("{}: a regular file without a name: the archive is corrupt{}",
                                   what, ResumeHint()));
  }
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos) EnsureFolder(folder + "/" + path.substr(0, slash), what);
  const std::string base = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (options_.nested_tars && base.size() > kNestedSuffix.size() && base.ends_with(kNestedSuffix)) {
    ExtractNested(a, folder + "/" + path.substr(0, path.size() - kNestedSuffix.size()),
                  fmt::format("'{}' (its header at {})", Printable(name), place), what);
    SkipRest(a, what);  // the record padding after the nested tar's end blocks
  } else {
    WriteMember(a, entry, folder + "/" + path, what);
  }
  if (top) MembersDoneTo(a);
}

void TarMembers::SkipRest(archive* a, const std::string& what) {
  if (archive_read_data_skip(a) != ARCHIVE_OK) {
    throw RuntimeError(fmt::format("{}: {}{}", what, ArchiveError(a), ResumeHint()));
  }
}

void TarMembers::WriteMember(archive* a, archive_entry* entry, const std::string& full,
                             const std::string& what) {
  const uint64_t size = static_cast<uint64_t>(archive_entry_size(entry));
  file_.Open(full, what);
  uint64_t written = 0;
  for (;;) {
    const void* block = nullptr;
    size_t block_size = 0;
    la_int64_t offset = 0;
    const int status = archive_read_data_block(a, &block, &block_size, &offset);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) {
      throw RuntimeError(fmt::format("{} ({} of its {} bytes read): {}{}", what, written, size,
                                     ArchiveError(a), ResumeHint()));
    }
    if (static_cast<uint64_t>(offset) != written) {
      throw RuntimeError(fmt::format(
          "{}: a sparse file (data at offset {} after {} bytes): not supported; unpack this "
          "archive with tar{}",
          what, offset, written, ResumeHint()));
    }
    file_.Write(static_cast<const char*>(block), block_size, written + block_size == size);
    written += block_size;
  }
  const uint64_t bytes = file_.Commit(&size);
  ++stats_.members;
  stats_.bytes += bytes;
}

// A member that is a tar: its members go into `folder` (n01440764.tar -> n01440764/).
void TarMembers::ExtractNested(archive* outer, const std::string& folder, const std::string& nested,
                               const std::string& what) {
  EnsureFolder(folder, what);
  ArchivePtr a = NewTarReader();
  NestedSource source{outer, what};
  if (archive_read_open(a.get(), &source, nullptr, &ReadNested, nullptr) != ARCHIVE_OK) {
    throw RuntimeError(
        fmt::format("{} (a nested tar): {}{}", what, ArchiveError(a.get()), ResumeHint()));
  }
  ExtractTar(a.get(), folder, nested, false);
}

void TarMembers::EnsureFolder(const std::string& full, std::string_view what) {
  if (made_folders_.contains(full)) return;
  std::error_code error;
  std::filesystem::create_directories(full, error);
  if (error || !std::filesystem::is_directory(full)) {
    throw IoError(fmt::format("cannot create folder '{}' for {}: {} (check the "
                              "destination's permissions and space, then resume)",
                              full, what, error ? error.message() : "a file has that name"),
                  error.value());
  }
  made_folders_.insert(full);
}

void TarMembers::CountSkipped(const std::string& what, const archive_entry* entry) {
  ++stats_.skipped;
  if (warned_skip_) return;
  warned_skip_ = true;
  Warn(
      "{} is a {}: not created (links, devices, FIFOs and unknown types are skipped so an "
      "archive cannot point outside the destination; the stats count them)",
      what, KindOf(entry));
}

// Every member before the tar reader's position is whole; a compressed archive resumes only
// from its start.
void TarMembers::MembersDoneTo(archive* a) {
  resume_offset_ =
      archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE ? 0 : start_offset_ + ReaderPosition(a);
}

// Where a member is, in errors: the archive offset of its header (in a nested tar, that
// tar's own offsets and the outer header's place).
std::string TarMembers::Place(uint64_t offset, const std::string& outer) const {
  if (outer.empty()) return fmt::format("archive offset {}", start_offset_ + offset);
  return fmt::format("offset {} of nested tar {}", offset, outer);
}

std::string TarMembers::ResumeHint() const {
  return fmt::format("; fetch it again from archive offset {} to resume", resume_offset_);
}

}  // namespace trainbench::stage
