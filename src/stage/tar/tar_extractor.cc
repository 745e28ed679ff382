#include "stage/tar/tar_extractor.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_set>

#include "common/error.h"
#include "common/log.h"
#include "common/strings.h"
#include "stage/tar/tar_member_file.h"
#include "stage/tar/tar_path.h"

namespace trainbench::stage {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kTarBlock = 512;
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

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveFree>;

// A reader for tar, plain or gzip'd (the one rule set every tar in the archive goes through).
ArchivePtr NewTarReader() {
  ArchivePtr a(archive_read_new());
  if (!a) throw RuntimeError("tar extractor: libarchive could not allocate a reader");
  archive_read_support_filter_gzip(a.get());
  archive_read_support_format_tar(a.get());
  return a;
}

std::string ErrorOf(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "libarchive gave no reason";
}

}  // namespace

class TarExtractor::Impl {
 public:
  Impl(std::string dest, TarOptions options, uint64_t start_offset)
      : dest_(std::move(dest)), options_(options), start_offset_(start_offset) {
    if (start_offset % kTarBlock != 0) {
      throw RuntimeError(fmt::format(
          "tar extractor for '{}': start offset {} is not at a {}-byte block boundary; resume "
          "only at an offset ResumeOffset() gave",
          dest_, start_offset, kTarBlock));
    }
    resume_offset_ = start_offset;
    EnsureFolder(dest_, "the destination");
    worker_ = std::thread([this] { Work(); });
  }

  ~Impl() {
    {
      std::lock_guard lock(mutex_);
      abort_ = true;
    }
    changed_.notify_all();
    worker_.join();
  }

  void Feed(const char* data, size_t size) {
    Timed("Feed", [&] {
      std::unique_lock lock(mutex_);
      stats_.archive_bytes += size;
      // Nothing to hand over (libarchive reads a read of 0 bytes as the end), or the archive
      // ended: what follows is tar's record padding.
      if (size == 0 || done_)
        return ThrowIfFailed();  // the archive ended: tar's trailing record padding
      chunk_ = data;
      chunk_size_ = size;
      chunk_waiting_ = true;
      changed_.notify_all();
      // Back when libarchive asks for the next bytes (it is done with these) or ends.
      changed_.wait(lock, [&] { return (!chunk_waiting_ && !chunk_held_) || done_; });
      ThrowIfFailed();
    });
  }

  void Finish() {
    Timed("Finish", [&] {
      std::unique_lock lock(mutex_);
      end_of_input_ = true;
      changed_.notify_all();
      changed_.wait(lock, [&] { return done_; });
      ThrowIfFailed();
    });
    finished_ = true;
  }

  uint64_t ResumeOffset() const { return resume_offset_; }
  const TarStats& Stats() const { return stats_; }

 private:
  // Runs `work` timed; after an error every later call refuses.
  template <typename Work>
  void Timed(std::string_view what, Work work) {
    if (failed_ || finished_) {
      throw RuntimeError(fmt::format(
          "tar extractor: {} after {}; make a new extractor at archive offset {} to resume", what,
          failed_ ? "an error" : "Finish", ResumeOffset()));
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      work();
    } catch (...) {
      failed_ = true;
      stats_.seconds += Since(start);
      throw;
    }
    stats_.seconds += Since(start);
  }

  static double Since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // Under mutex_.
  void ThrowIfFailed() {
    if (error_) std::rethrow_exception(error_);
  }

  // libarchive's read callback, on the worker: hands back the previous chunk, waits for the next.
  static la_ssize_t Read(archive* a, void* self_pointer, const void** buffer) {
    auto* self = static_cast<Impl*>(self_pointer);
    std::unique_lock lock(self->mutex_);
    self->chunk_held_ = false;
    self->changed_.notify_all();
    self->changed_.wait(
        lock, [&] { return self->chunk_waiting_ || self->end_of_input_ || self->abort_; });
    if (self->abort_) {
      archive_set_error(a, ECANCELED, "the extraction was stopped");
      return ARCHIVE_FATAL;
    }
    if (!self->chunk_waiting_) return 0;  // end of input
    if (!self->saw_data_) {
      self->saw_data_ = std::any_of(self->chunk_, self->chunk_ + self->chunk_size_,
                                    [](char c) { return c != 0; });
    }
    self->chunk_waiting_ = false;
    self->chunk_held_ = true;
    *buffer = self->chunk_;
    return static_cast<la_ssize_t>(self->chunk_size_);
  }

  void Work() {
    std::exception_ptr error;
    try {
      ArchivePtr a = NewTarReader();
      if (archive_read_open(a.get(), this, nullptr, &Impl::Read, nullptr) != ARCHIVE_OK &&
          saw_data_) {  // zeros only, or nothing: an empty archive
        throw RuntimeError(
            fmt::format("tar header at archive offset {}: {}", start_offset_, ErrorOf(a.get())));
      }
      ExtractTar(a.get(), dest_, "", true);
    } catch (...) {
      file_.Abort();
      error = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    error_ = error;
    done_ = true;
    chunk_held_ = false;
    changed_.notify_all();
  }

  // Where a member is, in errors: the archive offset of its header (in a nested tar, that
  // tar's own offsets and the outer header's place).
  std::string Place(uint64_t offset, const std::string& outer) const {
    if (outer.empty()) return fmt::format("archive offset {}", start_offset_ + offset);
    return fmt::format("offset {} of nested tar {}", offset, outer);
  }

  std::string ResumeHint() const {
    return fmt::format("; fetch it again from archive offset {} to resume", resume_offset_);
  }

  // Where the tar reader `a` is in its (uncompressed) tar: past the last whole member.
  static uint64_t Position(archive* a) { return static_cast<uint64_t>(archive_filter_bytes(a, 0)); }

  // Every member before the tar reader's position is whole; a compressed archive resumes only
  // from its start.
  void MembersDoneTo(archive* a) {
    resume_offset_ =
        archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE ? 0 : start_offset_ + Position(a);
  }

  // Every member of the tar `a` under `folder`; `outer` names the nested tar it is, as
  // "'NAME' (its header at archive offset N)" ("" at the top).
  void ExtractTar(archive* a, const std::string& folder, const std::string& outer, bool top) {
    for (;;) {
      archive_entry* entry = nullptr;
      const uint64_t before = Position(a);
      const int status = archive_read_next_header(a, &entry);
      if (status == ARCHIVE_EOF) return;
      const la_int64_t header_at = archive_read_header_position(a);
      const uint64_t at = header_at >= 0 && status >= ARCHIVE_WARN ? header_at : before;
      if (status != ARCHIVE_OK && status != ARCHIVE_WARN) {
        if (top && !saw_data_) return;  // no input, or zeros only: the end blocks (resumed at)
        throw RuntimeError(
            fmt::format("tar header at {}: {}{}", Place(at, outer), ErrorOf(a), ResumeHint()));
      }
      const char* raw_name = archive_entry_pathname(entry);
      const std::string name = raw_name != nullptr ? raw_name : "";
      const std::string what =
          fmt::format("tar member '{}' at {}", Printable(name), Place(at, outer));
      const std::string path = SafeMemberPath(name, Place(at, outer));
      const mode_t type = archive_entry_filetype(entry);
      if (archive_entry_hardlink(entry) != nullptr || (type != AE_IFREG && type != AE_IFDIR)) {
        CountSkipped(what, entry);
        if (top) SkipRest(a, what);
        continue;
      }
      if (type == AE_IFDIR) {
        if (!path.empty()) EnsureFolder(folder + "/" + path, what);
        if (top) SkipRest(a, what);
        continue;
      }
      if (path.empty()) {
        throw RuntimeError(fmt::format(
            "{}: a regular file without a name: the archive is corrupt{}", what, ResumeHint()));
      }
      const size_t slash = path.rfind('/');
      if (slash != std::string::npos) EnsureFolder(folder + "/" + path.substr(0, slash), what);
      const std::string base = path.substr(slash == std::string::npos ? 0 : slash + 1);
      if (options_.nested_tars && base.size() > kNestedSuffix.size() &&
          base.ends_with(kNestedSuffix)) {
        ExtractNested(a, folder + "/" + path.substr(0, path.size() - kNestedSuffix.size()),
                      fmt::format("'{}' (its header at {})", Printable(name), Place(at, outer)),
                      what);
        SkipRest(a, what);  // the record padding after the nested tar's end blocks
      } else {
        WriteMember(a, entry, folder + "/" + path, what);
      }
      if (top) MembersDoneTo(a);
    }
  }

  void SkipRest(archive* a, const std::string& what) {
    if (archive_read_data_skip(a) != ARCHIVE_OK) {
      throw RuntimeError(fmt::format("{}: {}{}", what, ErrorOf(a), ResumeHint()));
    }
  }

  void WriteMember(archive* a, archive_entry* entry, const std::string& full,
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
                                       ErrorOf(a), ResumeHint()));
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

  struct NestedSource {
    archive* outer;
    std::string what;
  };

  static la_ssize_t ReadNested(archive* a, void* source_pointer, const void** buffer) {
    auto* source = static_cast<NestedSource*>(source_pointer);
    size_t size = 0;
    la_int64_t offset = 0;
    const int status = archive_read_data_block(source->outer, buffer, &size, &offset);
    if (status == ARCHIVE_EOF) return 0;
    if (status < ARCHIVE_WARN) {
      archive_set_error(a, EIO, "%s", ErrorOf(source->outer).c_str());
      return ARCHIVE_FATAL;
    }
    return static_cast<la_ssize_t>(size);
  }

  // A member that is a tar: its members go into `folder` (n01440764.tar -> n01440764/).
  void ExtractNested(archive* outer, const std::string& folder, const std::string& nested,
                     const std::string& what) {
    EnsureFolder(folder, what);
    ArchivePtr a = NewTarReader();
    NestedSource source{outer, what};
    if (archive_read_open(a.get(), &source, nullptr, &Impl::ReadNested, nullptr) != ARCHIVE_OK) {
      throw RuntimeError(
          fmt::format("{} (a nested tar): {}{}", what, ErrorOf(a.get()), ResumeHint()));
    }
    ExtractTar(a.get(), folder, nested, false);
  }

  void EnsureFolder(const std::string& full, std::string_view what) {
    if (made_folders_.contains(full)) return;
    std::error_code error;
    fs::create_directories(full, error);
    if (error || !fs::is_directory(full)) {
      throw IoError(fmt::format("cannot create folder '{}' for {}: {} (check the "
                                "destination's permissions and space, then resume)",
                                full, what, error ? error.message() : "a file has that name"),
                    error.value());
    }
    made_folders_.insert(full);
  }

  void CountSkipped(const std::string& what, const archive_entry* entry) {
    ++stats_.skipped;
    if (warned_skip_) return;
    warned_skip_ = true;
    Warn(
        "{} is a {}: not created (links, devices, FIFOs and unknown types are skipped so an "
        "archive cannot point outside the destination; the stats count them)",
        what, KindOf(entry));
  }

  const std::string dest_;
  const TarOptions options_;
  const uint64_t start_offset_;

  // The worker's (read by the feeder only while the worker waits for bytes).
  TarStats stats_;
  uint64_t resume_offset_ = 0;
  TarMemberFile file_;
  std::unordered_set<std::string> made_folders_;
  bool warned_skip_ = false;

  // The feeder's.
  bool failed_ = false;
  bool finished_ = false;

  // The hand-over between Feed and Read.
  std::mutex mutex_;
  std::condition_variable changed_;
  const char* chunk_ = nullptr;
  size_t chunk_size_ = 0;
  bool chunk_waiting_ = false;  // Feed put a chunk up; Read has not taken it
  bool chunk_held_ = false;     // libarchive may still read the chunk Read gave it
  bool end_of_input_ = false;
  bool abort_ = false;
  bool done_ = false;
  bool saw_data_ = false;  // a byte other than zero came (all zeros: the end blocks alone)
  std::exception_ptr error_;

  std::thread worker_;  // last: starts once everything above exists
};

TarExtractor::TarExtractor(std::string dest, TarOptions options, uint64_t start_offset)
    : impl_(std::make_unique<Impl>(std::move(dest), options, start_offset)) {}

TarExtractor::~TarExtractor() = default;

void TarExtractor::Feed(const void* data, size_t size) {
  impl_->Feed(static_cast<const char*>(data), size);
}

void TarExtractor::Finish() { impl_->Finish(); }

uint64_t TarExtractor::ResumeOffset() const { return impl_->ResumeOffset(); }

const TarStats& TarExtractor::Stats() const { return impl_->Stats(); }

}  // namespace trainbench::stage
