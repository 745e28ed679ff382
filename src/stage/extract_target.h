// Where `stage --extract` streams a tar archive: stage::TarExtractor (tar/tar_extractor.h).
// Not thread-safe: one feeder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace trainbench::stage {

class ExtractTarget {
 public:
  virtual ~ExtractTarget() = default;
  // The archive's next bytes, in order.
  virtual void Feed(const void* data, size_t size) = 0;
  // The archive ended.
  virtual void Finish() = 0;
  // Where to feed from again after a stop, losing no complete member.
  virtual uint64_t ResumeOffset() const = 0;
  virtual uint64_t Members() const = 0;
};

// A target extracting into `dest`, fed from archive offset `start_offset`.
std::unique_ptr<ExtractTarget> MakeTarExtractTarget(const std::string& dest, uint64_t start_offset);

}  // namespace trainbench::stage
