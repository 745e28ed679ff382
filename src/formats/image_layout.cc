#include "formats/image_layout.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"
#include "common/random.h"

namespace trainbench::formats {

uint32_t ImageSide(uint64_t sample_bytes) {
  const auto side = std::llround(std::sqrt(static_cast<double>(sample_bytes)));
  return side < 1 ? 1 : static_cast<uint32_t>(std::min<long long>(side, 65500));  // JPEG's limit
}

uint64_t SingleSampleBytes(const FileSpec& spec) {
  if (spec.sample_sizes.size() != 1)
    throw RuntimeError(fmt::format("{}: an image file holds one sample, the plan gives {}",
                                   spec.path, spec.sample_sizes.size()));
  return spec.sample_sizes.front();
}

std::vector<unsigned char> NoisePixels(uint64_t seed, uint32_t side) {
  std::vector<unsigned char> pixels(static_cast<size_t>(side) * side);
  FillRandom(seed, 0, pixels.data(), pixels.size());
  return pixels;
}

WrittenFile WholeFileSample(const std::string& path, uint64_t size_bytes) {
  return {path, size_bytes, 1, {{0, size_bytes}}, {}};
}

void CheckWholeFileSample(const WrittenFile& expected, uint64_t size, const std::string& name,
                          std::string_view kind) {
  CheckSize(kind, name, size, expected);
  if (expected.num_samples != 1 ||
      (!expected.samples.empty() &&
       (expected.samples.size() != 1 || expected.samples[0].offset != 0 ||
        expected.samples[0].length != size)))
    ThrowBadFile(kind, name, 0, "the manifest does not give it one whole-file sample");
}

}  // namespace trainbench::formats
