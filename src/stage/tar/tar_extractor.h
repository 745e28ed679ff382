// Streams a tar archive (plain or gzip'd) into a folder while it is still arriving (no copy of
// the archive on disk), read by libarchive: ustar, GNU and pax; regular files and folders are
// created, links, devices and FIFOs skipped (counted, with one warning); a member that
// is itself a tar (the ImageNet train tar holds one tar per class) is, with nested_tars,
// extracted into a folder named after it (n01440764.tar -> n01440764/). Each member is written
// under a temporary name and renamed when whole, so nothing half-written has a final name.
// Resume: ResumeOffset() is where the archive must be fed from again after a stop (the start
// of the first top-level member not yet complete; 0 for a compressed archive, whose members
// cannot be reached mid-stream); a new extractor made with that offset carries on.
// libarchive pulls its input, the stage pushes it: libarchive runs on a thread of its own that
// takes each Feed's bytes in place (no copy) and Feed returns once it asks for the next ones,
// so the two never run at once. Not thread-safe: one feeder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace trainbench::stage {

struct TarOptions {
  bool nested_tars = true;  // extract members ending in .tar into a folder of their name
};

struct TarStats {
  uint64_t members = 0;        // regular files written (nested ones included)
  uint64_t bytes = 0;          // their bytes
  uint64_t skipped = 0;        // members not created: links, devices, FIFOs, unknown types
  uint64_t archive_bytes = 0;  // archive bytes consumed (from the start offset)
  double seconds = 0;          // time spent inside Feed/Finish (the extraction's own time)
};

class TarExtractor {
 public:
  // `start_offset`: the archive offset the first Feed starts at (0, or an earlier
  // ResumeOffset()). Creates `dest` if needed.
  TarExtractor(std::string dest, TarOptions options, uint64_t start_offset = 0);
  ~TarExtractor();
  TarExtractor(const TarExtractor&) = delete;
  TarExtractor& operator=(const TarExtractor&) = delete;

  // The next `size` bytes of the archive, in order. Throws RuntimeError naming the member and
  // archive offset on a corrupt header or a path leaving `dest` (absolute, ".."), IoError when
  // writing fails. After a throw the partial file is gone and every later call throws: make a
  // new extractor at ResumeOffset(). Destroying it without Finish also removes the partial file.
  void Feed(const void* data, size_t size);
  // The archive ended: throws RuntimeError if it ended inside a member.
  void Finish();
  // The archive offset to feed from again after a stop, losing no complete member.
  uint64_t ResumeOffset() const;
  const TarStats& Stats() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trainbench::stage
