#include "stage/tar_extractor.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>
#include <unordered_set>

#include "common/error.h"
#include "common/log.h"
#include "common/strings.h"
#include "stage/tar_header.h"
#include "stage/tar_member_file.h"
#include "stage/tar_path.h"

namespace trainbench::stage {
namespace {

namespace fs = std::filesystem;

// GNU long names and pax headers are held in memory: this bounds what a corrupt size field can
// make the extractor allocate (real ones are under a few KiB; PATH_MAX is 4096).
constexpr uint64_t kMaxExtensionBytes = 1 << 20;
constexpr std::string_view kNestedSuffix = ".tar";

uint64_t Padding(uint64_t size) { return (kTarBlock - size % kTarBlock) % kTarBlock; }

std::string ParentOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string_view KindOf(char type) {
  switch (type) {
    case '1':
      return "hard link";
    case '2':
      return "symbolic link";
    case '3':
      return "character device";
    case '4':
      return "block device";
    case '6':
      return "FIFO";
    default:
      return "member of an unknown type";
  }
}

class TarStream;

// What one extraction and its nested tars share: the figures, the warnings given once, and
// the top-level stream (whose resume offset every error's next step names).
struct Shared {
  TarStats stats;
  const TarStream* root = nullptr;
  bool warned_skip = false;
  bool warned_global = false;
  bool warned_end = false;
};

// One archive's bytes in order: the top-level archive, or the data of a member that is a tar.
class TarStream {
 public:
  // `outer_place` names the member holding this tar in its parent ("" at the top).
  TarStream(std::string dest, const TarOptions& options, uint64_t start_offset, Shared& shared,
            std::string outer_place, std::string nested_name);
  TarStream(const TarStream&) = delete;
  TarStream& operator=(const TarStream&) = delete;

  void Feed(const char* data, size_t size);
  // `require_end_blocks`: an archive ending at a member boundary without its two zero blocks
  // is an error rather than a warning (a nested tar checked with verify_members).
  void Finish(bool require_end_blocks);
  uint64_t ResumeOffset() const { return resume_offset_; }
  // Removes the partial files of the member being written (this tar's and nested ones').
  void Abort() noexcept;

 private:
  enum class State { kHeader, kData, kPadding, kEnd };
  // Where a member's data goes.
  enum class Sink { kFile, kNested, kLongName, kLongLink, kPax, kGlobalPax, kSkip };

  size_t FeedHeader(const char* data, size_t size);
  size_t FeedData(const char* data, size_t size);
  void OnHeader(const unsigned char* block, uint64_t at);
  void StartExtension(Sink sink, const TarHeader& header, uint64_t at);
  void StartRegular(const std::string& name, uint64_t size, uint64_t at);
  void StartData(Sink sink, uint64_t size);
  void EndData();
  void MemberDone();
  void EnsureFolder(const std::string& relative);
  void CountSkipped(const std::string& name, char type, uint64_t at);
  std::string Place(uint64_t offset) const;
  // The next step of an error about a corrupt or truncated archive.
  std::string ResumeHint() const;

  const std::string dest_;
  const TarOptions options_;
  Shared& shared_;
  const std::string outer_place_;
  const std::string nested_name_;

  uint64_t offset_;         // archive offset of the next byte fed
  uint64_t resume_offset_;  // the start of the first member not yet complete
  State state_ = State::kHeader;
  unsigned char header_[kTarBlock];
  size_t header_fill_ = 0;  // bytes of a header that straddles Feed calls
  int zero_blocks_ = 0;

  // The member being read; `in_member_` from its first header (GNU long name, pax) on.
  bool in_member_ = false;
  uint64_t member_start_ = 0;
  std::string member_name_;
  uint64_t member_size_ = 0;
  Sink sink_ = Sink::kSkip;
  uint64_t data_left_ = 0;
  uint64_t pad_left_ = 0;

  // Extension headers waiting for the member they describe.
  uint64_t extension_at_ = 0;
  std::string collected_;
  std::optional<std::string> long_name_;
  PaxRecords pax_;

  TarMemberFile file_;
  std::unique_ptr<TarStream> nested_;
  // Folders made (or found) already: one mkdir per folder, not per file.
  std::unordered_set<std::string> made_folders_;
};

TarStream::TarStream(std::string dest, const TarOptions& options, uint64_t start_offset,
                     Shared& shared, std::string outer_place, std::string nested_name)
    : dest_(std::move(dest)),
      options_(options),
      shared_(shared),
      outer_place_(std::move(outer_place)),
      nested_name_(std::move(nested_name)),
      offset_(start_offset),
      resume_offset_(start_offset) {
  std::error_code error;
  fs::create_directories(dest_, error);
  if (error || !fs::is_directory(dest_)) {
    throw IoError(fmt::format("cannot create the tar destination folder '{}': {} (check the path "
                              "and its permissions)",
                              dest_, error ? error.message() : "a file has that name"),
                  error.value());
  }
}

void TarStream::Feed(const char* data, size_t size) {
  while (size > 0) {
    size_t used = 0;
    switch (state_) {
      case State::kHeader:
        used = FeedHeader(data, size);
        break;
      case State::kData:
        used = FeedData(data, size);
        break;
      case State::kPadding:
        used = static_cast<size_t>(std::min<uint64_t>(size, pad_left_));
        pad_left_ -= used;
        offset_ += used;
        if (pad_left_ == 0) state_ = State::kHeader;
        break;
      case State::kEnd:
        // Past the end blocks: tar writers pad the archive to a whole record (10 KiB).
        used = size;
        offset_ += used;
        break;
    }
    data += used;
    size -= used;
  }
}

size_t TarStream::FeedHeader(const char* data, size_t size) {
  const unsigned char* block = reinterpret_cast<const unsigned char*>(data);
  size_t used = kTarBlock;
  if (header_fill_ > 0 || size < kTarBlock) {
    used = std::min(size, kTarBlock - header_fill_);
    std::memcpy(header_ + header_fill_, data, used);
    header_fill_ += used;
    if (header_fill_ < kTarBlock) {
      offset_ += used;
      return used;
    }
    header_fill_ = 0;
    block = header_;
  }
  offset_ += used;
  OnHeader(block, offset_ - kTarBlock);
  return used;
}

size_t TarStream::FeedData(const char* data, size_t size) {
  const size_t used = static_cast<size_t>(std::min<uint64_t>(size, data_left_));
  switch (sink_) {
    case Sink::kFile:
      file_.Write(data, used, used == data_left_);
      break;
    case Sink::kNested:
      nested_->Feed(data, used);
      break;
    case Sink::kSkip:
      break;
    case Sink::kLongName:
    case Sink::kLongLink:
    case Sink::kPax:
    case Sink::kGlobalPax:
      collected_.append(data, used);
      break;
  }
  data_left_ -= used;
  offset_ += used;
  if (data_left_ == 0) EndData();
  return used;
}

void TarStream::OnHeader(const unsigned char* block, uint64_t at) {
  if (IsZeroBlock(block)) {
    if (in_member_) {
      throw RuntimeError(fmt::format(
          "zero block at {} where the member described by the long-name or pax header at {} "
          "should start: the archive is corrupt{}",
          Place(at), Place(member_start_), ResumeHint()));
    }
    if (++zero_blocks_ == 2) state_ = State::kEnd;
    return;
  }
  if (zero_blocks_ == 1) {
    // GNU tar stops at a lone zero block (dropping the rest with a warning); a dataset
    // silently cut short is worse than an error.
    throw RuntimeError(
        fmt::format("a lone zero block at {} is followed by a header: the archive is corrupt{}",
                    Place(at - kTarBlock), ResumeHint()));
  }
  TarHeader header;
  try {
    header = ParseTarHeader(block, Place(at));
  } catch (const RuntimeError& error) {
    throw RuntimeError(error.what() + ResumeHint());
  }
  if (!in_member_) {
    in_member_ = true;
    member_start_ = at;
  }
  switch (header.type) {
    case 'L':
      return StartExtension(Sink::kLongName, header, at);
    case 'K':
      return StartExtension(Sink::kLongLink, header, at);
    case 'x':
      return StartExtension(Sink::kPax, header, at);
    case 'g':
      return StartExtension(Sink::kGlobalPax, header, at);
    default:
      break;
  }
  // Precedence as GNU tar and Python's tarfile: pax path, GNU long name, the header's name.
  std::string name = pax_.path ? *pax_.path : long_name_ ? *long_name_ : header.name;
  const uint64_t size = pax_.size ? *pax_.size : header.size;
  const bool sparse = pax_.sparse || header.type == 'S';
  pax_ = PaxRecords();
  long_name_.reset();
  member_name_ = name;
  member_size_ = size;
  if (sparse) {
    throw RuntimeError(fmt::format(
        "tar member '{}' at {} is a GNU sparse file, which the streaming extractor does not "
        "expand; recreate the archive without --sparse, or extract it with tar",
        Printable(name), Place(at)));
  }
  switch (header.type) {
    case '0':
    case '\0':
    case '7':  // contiguous file: a regular file everywhere but one old system
      // Pre-POSIX tars mark a folder by a trailing '/' on a regular member (as GNU tar reads).
      if (!name.ends_with('/')) return StartRegular(name, size, at);
      [[fallthrough]];
    case '5':
      EnsureFolder(SafeMemberPath(name, Place(at)));
      return StartData(Sink::kSkip, 0);
    case '1':
    case '2':
    case '3':
    case '4':
    case '6':
      // No data follows these, whatever their size says (as Python's tarfile reads them).
      CountSkipped(name, header.type, at);
      return StartData(Sink::kSkip, 0);
    default:
      CountSkipped(name, header.type, at);
      return StartData(Sink::kSkip, size);
  }
}

void TarStream::StartExtension(Sink sink, const TarHeader& header, uint64_t at) {
  if (header.size > kMaxExtensionBytes) {
    throw RuntimeError(fmt::format(
        "tar extension header ('{}') at {} says its data is {} bytes, more than the {} a long "
        "name or pax header can need: the archive is corrupt{}",
        Printable(std::string_view(&header.type, 1)), Place(at), header.size, kMaxExtensionBytes,
        ResumeHint()));
  }
  extension_at_ = at;
  collected_.clear();
  collected_.reserve(header.size);
  StartData(sink, header.size);
}

void TarStream::StartRegular(const std::string& name, uint64_t size, uint64_t at) {
  const std::string path = SafeMemberPath(name, Place(at));
  if (path.empty()) {
    throw RuntimeError(fmt::format(
        "tar member '{}' at {}: a regular file without a name: the archive is corrupt{}",
        Printable(name), Place(at), ResumeHint()));
  }
  const std::string base = path.substr(path.rfind('/') + 1);
  if (options_.nested_tars && base.size() > kNestedSuffix.size() && base.ends_with(kNestedSuffix)) {
    const std::string folder = path.substr(0, path.size() - kNestedSuffix.size());
    EnsureFolder(folder);
    nested_ =
        std::make_unique<TarStream>(dest_ + "/" + folder, options_, 0, shared_, Place(at), name);
    return StartData(Sink::kNested, size);
  }
  EnsureFolder(ParentOf(path));
  file_.Open(dest_ + "/" + path, fmt::format("tar member '{}' at {}", Printable(name), Place(at)));
  StartData(Sink::kFile, size);
}

void TarStream::StartData(Sink sink, uint64_t size) {
  sink_ = sink;
  data_left_ = size;
  pad_left_ = Padding(size);
  state_ = State::kData;
  if (size == 0) EndData();
}

void TarStream::EndData() {
  state_ = pad_left_ > 0 ? State::kPadding : State::kHeader;
  switch (sink_) {
    case Sink::kFile: {
      const uint64_t written = file_.Commit(options_.verify_members ? &member_size_ : nullptr);
      ++shared_.stats.members;
      shared_.stats.bytes += written;
      return MemberDone();
    }
    case Sink::kNested:
      nested_->Finish(options_.verify_members);
      nested_.reset();
      return MemberDone();
    case Sink::kSkip:
      return MemberDone();
    case Sink::kLongName:
      long_name_ = collected_.substr(0, collected_.find('\0'));
      return;
    case Sink::kLongLink:
      return;  // links are not created
    case Sink::kPax:
      return ParsePaxRecords(collected_, Place(extension_at_), pax_);
    case Sink::kGlobalPax: {
      PaxRecords global;
      ParsePaxRecords(collected_, Place(extension_at_), global);
      if ((global.path || global.size) && !shared_.warned_global) {
        shared_.warned_global = true;
        // A global path would name every member alike, and a resumed extraction starting
        // after this header could not see it: only per-member ('x') values are applied.
        Warn("the global pax header at {} sets path or size for every later member; ignored",
             Place(extension_at_));
      }
      return;
    }
  }
}

void TarStream::MemberDone() {
  in_member_ = false;
  resume_offset_ = offset_ + pad_left_;
}

void TarStream::EnsureFolder(const std::string& relative) {
  if (relative.empty() || made_folders_.contains(relative)) return;
  const std::string full = dest_ + "/" + relative;
  std::error_code error;
  fs::create_directories(full, error);
  if (error || !fs::is_directory(full)) {
    throw IoError(fmt::format("cannot create folder '{}' for tar member '{}': {} (check the "
                              "destination's permissions and space, then resume)",
                              full, member_name_, error ? error.message() : "a file has that name"),
                  error.value());
  }
  made_folders_.insert(relative);
}

void TarStream::CountSkipped(const std::string& name, char type, uint64_t at) {
  ++shared_.stats.skipped;
  if (shared_.warned_skip) return;
  shared_.warned_skip = true;
  Warn(
      "tar member '{}' at {} is a {}: not created (links, devices, FIFOs and unknown types are "
      "skipped so an archive cannot point outside the destination; the stats count them)",
      name, Place(at), KindOf(type));
}

void TarStream::Finish(bool require_end_blocks) {
  if (state_ == State::kEnd) return;
  if (state_ == State::kHeader && header_fill_ == 0 && !in_member_) {
    if (zero_blocks_ == 1) return;  // one end block of two: GNU tar and tarfile accept it
    if (require_end_blocks) {
      throw RuntimeError(fmt::format(
          "the archive ended at {} after a whole member but without the two zero blocks that "
          "end a tar: it was cut short{}",
          Place(offset_), ResumeHint()));
    }
    if (!shared_.warned_end) {
      shared_.warned_end = true;
      Warn(
          "the archive ended at {} without the two zero blocks that end a tar; accepted (as "
          "GNU tar does) since it ended between members",
          Place(offset_));
    }
    return;
  }
  std::string where;
  if (state_ == State::kHeader && header_fill_ > 0) {
    where = fmt::format("inside the header at {} ({} of its {} bytes arrived)",
                        Place(offset_ - header_fill_), header_fill_, kTarBlock);
  } else if (state_ == State::kData && sink_ != Sink::kFile && sink_ != Sink::kNested &&
             sink_ != Sink::kSkip) {
    where = fmt::format("inside the long-name or pax header at {}", Place(extension_at_));
  } else if (state_ == State::kHeader || state_ == State::kData) {
    // Between extension headers and their member, or inside the member's data.
    where = state_ == State::kHeader
                ? fmt::format("after the long-name or pax header at {}, before its member",
                              Place(member_start_))
                : fmt::format("inside member '{}' (first header at {}): {} of its {} bytes arrived",
                              member_name_, Place(member_start_), member_size_ - data_left_,
                              member_size_);
  } else {
    where = fmt::format("inside the padding after member '{}'", Printable(member_name_));
  }
  throw RuntimeError(fmt::format("the archive ended at {} {}: it was cut short{}", Place(offset_),
                                 where, ResumeHint()));
}

void TarStream::Abort() noexcept {
  file_.Abort();
  if (nested_) nested_->Abort();
}

std::string TarStream::Place(uint64_t offset) const {
  if (outer_place_.empty()) return fmt::format("archive offset {}", offset);
  return fmt::format("offset {} of nested tar '{}' (its header at {})", offset,
                     Printable(nested_name_), outer_place_);
}

std::string TarStream::ResumeHint() const {
  return fmt::format("; fetch it again from archive offset {} to resume",
                     shared_.root->ResumeOffset());
}

}  // namespace

class TarExtractor::Impl {
 public:
  Impl(std::string dest, TarOptions options, uint64_t start_offset)
      : root_(CheckedDest(std::move(dest), start_offset), options, start_offset, shared_, "", "") {
    shared_.root = &root_;
  }

  // Runs `work` on the stream, timing it; after an exception the partial file is removed at
  // once (a full disk gets its space back) and the extractor refuses further bytes.
  template <typename Work>
  void Run(std::string_view what, Work work) {
    if (failed_ || finished_) {
      throw RuntimeError(fmt::format(
          "tar extractor: {} after {}; make a new extractor at archive offset {} to resume", what,
          failed_ ? "an error" : "Finish", root_.ResumeOffset()));
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      work();
    } catch (...) {
      failed_ = true;
      root_.Abort();
      shared_.stats.seconds += Since(start);
      throw;
    }
    shared_.stats.seconds += Since(start);
  }

  static double Since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  static std::string CheckedDest(std::string dest, uint64_t start_offset) {
    if (start_offset % kTarBlock != 0) {
      throw RuntimeError(fmt::format(
          "tar extractor for '{}': start offset {} is not at a {}-byte block boundary; resume "
          "only at an offset ResumeOffset() gave",
          dest, start_offset, kTarBlock));
    }
    return dest;
  }

  Shared shared_;  // before root_, which refers to it
  TarStream root_;
  bool failed_ = false;
  bool finished_ = false;
};

TarExtractor::TarExtractor(std::string dest, TarOptions options, uint64_t start_offset)
    : impl_(std::make_unique<Impl>(std::move(dest), options, start_offset)) {}

TarExtractor::~TarExtractor() = default;

void TarExtractor::Feed(const void* data, size_t size) {
  impl_->Run("Feed", [&] {
    impl_->root_.Feed(static_cast<const char*>(data), size);
    impl_->shared_.stats.archive_bytes += size;
  });
}

void TarExtractor::Finish() {
  impl_->Run("Finish", [&] { impl_->root_.Finish(false); });
  impl_->finished_ = true;
}

uint64_t TarExtractor::ResumeOffset() const { return impl_->root_.ResumeOffset(); }

const TarStats& TarExtractor::Stats() const { return impl_->shared_.stats; }

}  // namespace trainbench::stage
