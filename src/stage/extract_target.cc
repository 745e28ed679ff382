#include "stage/extract_target.h"

#include "common/error.h"
#ifdef TRAINBENCH_HAVE_TAR_EXTRACTOR
#include "stage/tar_extractor.h"
#endif

namespace trainbench::stage {

#ifdef TRAINBENCH_HAVE_TAR_EXTRACTOR
namespace {

class TarTarget : public ExtractTarget {
 public:
  TarTarget(const std::string& dest, uint64_t start_offset)
      : extractor_(dest, TarOptions{}, start_offset) {}
  void Feed(const void* data, size_t size) override { extractor_.Feed(data, size); }
  void Finish() override { extractor_.Finish(); }
  uint64_t ResumeOffset() const override { return extractor_.ResumeOffset(); }
  uint64_t Members() const override { return extractor_.Stats().members; }

 private:
  TarExtractor extractor_;
};

}  // namespace

bool ExtractSupported() { return true; }

std::unique_ptr<ExtractTarget> MakeTarExtractTarget(const std::string& dest,
                                                    uint64_t start_offset) {
  return std::make_unique<TarTarget>(dest, start_offset);
}
#else
bool ExtractSupported() { return false; }

std::unique_ptr<ExtractTarget> MakeTarExtractTarget(const std::string&, uint64_t) {
  throw UsageError(
      "--extract: this build has no tar extractor (src/stage/tar_extractor.cc); stage without "
      "--extract and unpack with tar, or build a trainbench that has it");
}
#endif

}  // namespace trainbench::stage
