#include "formats/wire/array_samples.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace trainbench::formats {

uint64_t SquareSide(uint64_t bytes) {
  auto side = static_cast<uint64_t>(std::sqrt(static_cast<double>(bytes)));
  while (side > 0 && side * side > bytes) --side;  // the double's rounding, either way
  while ((side + 1) * (side + 1) <= bytes) ++side;
  return std::max<uint64_t>(side, 1);
}

uint64_t UniformSampleBytes(const FileSpec& spec) {
  if (spec.sample_sizes.empty()) return 0;
  const uint64_t size = spec.sample_sizes.front();
  for (const auto s : spec.sample_sizes)
    if (s != size)
      throw RuntimeError(fmt::format(
          "{}: an array file holds equal-sized samples, but the plan gives {} and {} bytes",
          spec.path, size, s));
  return size;
}

std::vector<uint64_t> DlioArrayShape(const FileSpec& spec) {
  const uint64_t bytes = UniformSampleBytes(spec);
  const uint64_t side = SquareSide(bytes);
  if (!spec.sample_sizes.empty() && side * side != bytes)
    throw RuntimeError(
        fmt::format("{}: a {}-byte sample is not a square (side x side) array", spec.path, bytes));
  return {side, side, spec.sample_sizes.size()};
}

std::string ShapeText(const std::vector<uint64_t>& shape) {
  return fmt::format("({}{})", fmt::join(shape, ", "), shape.size() == 1 ? "," : "");
}

std::vector<SampleExtent> RowExtents(uint64_t data_offset, uint64_t num_samples,
                                     uint64_t row_bytes) {
  std::vector<SampleExtent> extents(num_samples);
  for (uint64_t i = 0; i < num_samples; ++i) extents[i] = {data_offset + i * row_bytes, row_bytes};
  return extents;
}

uint64_t ArraySampleCount(const std::vector<uint64_t>& shape) {
  if (shape.size() <= 1) return 1;
  return shape.size() == 2 ? shape[0] : shape.back();
}

std::vector<SampleExtent> ArraySampleExtents(const std::vector<uint64_t>& shape,
                                             uint64_t item_bytes, uint64_t data_offset) {
  uint64_t total = item_bytes;
  for (const auto d : shape) total *= d;
  const uint64_t count = ArraySampleCount(shape);
  if (count == 0) return {};
  return RowExtents(data_offset, count, total / count);
}

}  // namespace trainbench::formats
