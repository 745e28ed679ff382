#include "formats/image/image_layout.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"
#include "common/random.h"
#include "formats/wire/array_samples.h"

namespace trainbench::formats {

uint32_t ImageSide(uint64_t sample_bytes) {
  return static_cast<uint32_t>(
      std::min<uint64_t>(SquareSide(sample_bytes), 65500));  // JPEG's limit
}

std::vector<unsigned char> NoisePixels(uint64_t seed, uint32_t side) {
  std::vector<unsigned char> pixels(static_cast<size_t>(side) * side);
  FillRandom(seed, 0, pixels.data(), pixels.size());
  return pixels;
}

WrittenFile WholeFileSample(const std::string& path, uint64_t size_bytes, uint64_t num_samples) {
  return {
      path, size_bytes, num_samples, std::vector<SampleExtent>(num_samples, {0, size_bytes}), {}};
}

void CheckWholeFileSample(const WrittenFile& expected, uint64_t size, const std::string& name,
                          std::string_view kind) {
  CheckSize(kind, name, size, expected);
  for (const auto& extent : expected.samples)
    if (extent.offset != 0 || extent.length != size)
      ThrowBadFile(kind, name, 0, "the manifest does not give every sample the whole file");
  if (expected.num_samples == 0 ||
      (!expected.samples.empty() && expected.samples.size() != expected.num_samples))
    ThrowBadFile(kind, name, 0,
                 fmt::format("the manifest gives {} samples and {} extents", expected.num_samples,
                             expected.samples.size()));
}

}  // namespace trainbench::formats
