#include "stage/extract_target.h"

#include "stage/tar/tar_extractor.h"

namespace trainbench::stage {
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

std::unique_ptr<ExtractTarget> MakeTarExtractTarget(const std::string& dest,
                                                    uint64_t start_offset) {
  return std::make_unique<TarTarget>(dest, start_offset);
}

}  // namespace trainbench::stage
