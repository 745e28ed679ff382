// The members of a tar, read by libarchive, written under a folder: regular files (each under
// a temporary name, renamed when whole: tar_member_file.h) and folders; links, devices and
// FIFOs skipped (counted, with one warning); a member that is itself a tar, with
// nested_tars, extracted into a folder named after it (n01440764.tar -> n01440764/). Every
// name is checked to stay inside the folder (tar_path.h). Keeps the archive offset to resume
// from: the start of the first top-level member not yet complete (0 for a compressed
// archive). Not thread-safe: the extractor's worker thread (the feeder reads ResumeOffset
// only while the worker waits for bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>

#include "stage/tar/tar_extractor.h"
#include "stage/tar/tar_member_file.h"

struct archive;
struct archive_entry;

namespace trainbench::stage {

class TarMembers {
 public:
  // The archive is fed from `start_offset`; `stats` counts its members, bytes and skipped.
  TarMembers(std::string dest, TarOptions options, uint64_t start_offset, TarStats& stats);

  // The archive's next input, as libarchive takes it: a byte other than zero means the
  // archive is not the end blocks alone (an empty one).
  void NoteInput(const char* data, size_t size);
  bool saw_data() const { return saw_data_; }
  // Every member of `a`, the reader of the archive itself, into the destination.
  void ExtractAll(archive* a);
  // Creates folder `full` (once) for `what`; throws IoError naming both when it cannot.
  void EnsureFolder(const std::string& full, std::string_view what);
  uint64_t ResumeOffset() const { return resume_offset_; }
  // Removes the member being written, if any (after a failure).
  void Abort() noexcept { file_.Abort(); }

 private:
  void ExtractTar(archive* a, const std::string& folder, const std::string& outer, bool top);
  void ExtractEntry(archive* a, archive_entry* entry, const std::string& folder,
                    const std::string& place, bool top);
  void SkipRest(archive* a, const std::string& what);
  void WriteMember(archive* a, archive_entry* entry, const std::string& full,
                   const std::string& what);
  void ExtractNested(archive* outer, const std::string& folder, const std::string& nested,
                     const std::string& what);
  void CountSkipped(const std::string& what, const archive_entry* entry);
  void MembersDoneTo(archive* a);
  std::string Place(uint64_t offset, const std::string& outer) const;
  std::string ResumeHint() const;

  const std::string dest_;
  const TarOptions options_;
  const uint64_t start_offset_;
  TarStats& stats_;
  uint64_t resume_offset_;
  TarMemberFile file_;
  std::unordered_set<std::string> made_folders_;
  bool warned_skip_ = false;
  bool saw_data_ = false;  // a byte other than zero came (all zeros: the end blocks alone)
};

}  // namespace trainbench::stage
