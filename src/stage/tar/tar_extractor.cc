#include "stage/tar/tar_extractor.h"

#include <archive.h>
#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <exception>
#include <string_view>
#include <thread>

#include "common/error.h"
#include "stage/tar/tar_hand_off.h"
#include "stage/tar/tar_members.h"
#include "stage/tar/tar_reader.h"

namespace trainbench::stage {
namespace {

constexpr uint64_t kTarBlock = 512;

}  // namespace

// The feeder's side (Feed, Finish: timed, refused after an error) and the worker thread on
// which libarchive pulls the bytes handed off (tar_hand_off.h) and the members are written
// (tar_members.h).
class TarExtractor::Impl {
 public:
  Impl(std::string dest, TarOptions options, uint64_t start_offset)
      : start_offset_(start_offset), members_(dest, options, start_offset, stats_) {
    if (start_offset % kTarBlock != 0) {
      throw RuntimeError(fmt::format(
          "tar extractor for '{}': start offset {} is not at a {}-byte block boundary; resume "
          "only at an offset ResumeOffset() gave",
          dest, start_offset, kTarBlock));
    }
    members_.EnsureFolder(dest, "the destination");
    worker_ = std::thread([this] { Work(); });
  }

  ~Impl() {
    hand_off_.Abort();
    worker_.join();
  }

  void Feed(const char* data, size_t size) {
    Timed("Feed", [&] {
      stats_.archive_bytes += size;
      hand_off_.Feed(data, size);
    });
  }

  void Finish() {
    Timed("Finish", [&] { hand_off_.Finish(); });
    finished_ = true;
  }

  uint64_t ResumeOffset() const { return members_.ResumeOffset(); }
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

  // libarchive's read callback, on the worker: hands back the previous chunk, waits for the next.
  static la_ssize_t Read(archive* a, void* self_pointer, const void** buffer) {
    auto* self = static_cast<Impl*>(self_pointer);
    const char* data = nullptr;
    size_t size = 0;
    if (!self->hand_off_.Take(&data, &size)) {
      archive_set_error(a, ECANCELED, "the extraction was stopped");
      return ARCHIVE_FATAL;
    }
    if (size == 0) return 0;  // end of input
    self->members_.NoteInput(data, size);
    *buffer = data;
    return static_cast<la_ssize_t>(size);
  }

  void Work() {
    std::exception_ptr error;
    try {
      ArchivePtr a = NewTarReader();
      if (archive_read_open(a.get(), this, nullptr, &Impl::Read, nullptr) != ARCHIVE_OK &&
          members_.saw_data()) {  // zeros only, or nothing: an empty archive
        throw RuntimeError(fmt::format("tar header at archive offset {}: {}", start_offset_,
                                       ArchiveError(a.get())));
      }
      members_.ExtractAll(a.get());
    } catch (...) {
      members_.Abort();
      error = std::current_exception();
    }
    hand_off_.End(error);
  }

  const uint64_t start_offset_;
  // The worker's (read by the feeder only while the worker waits for bytes), but
  // archive_bytes and seconds, which are the feeder's.
  TarStats stats_;
  TarMembers members_;  // after stats_: counts into it
  // The feeder's.
  bool failed_ = false;
  bool finished_ = false;
  TarHandOff hand_off_;
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
