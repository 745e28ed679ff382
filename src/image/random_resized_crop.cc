#include "image/random_resized_crop.h"

#include <algorithm>
#include <cmath>

namespace trainbench::image {

namespace {

constexpr double kScaleMin = 0.08;
constexpr double kScaleMax = 1.0;
constexpr double kRatioMin = 3.0 / 4.0;
constexpr double kRatioMax = 4.0 / 3.0;
constexpr int kAttempts = 10;

}  // namespace

CropBox RandomResizedCropBox(int width, int height, Random& random) {
  const double area = static_cast<double>(width) * height;
  const double log_min = std::log(kRatioMin), log_max = std::log(kRatioMax);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const double target_area = area * (kScaleMin + (kScaleMax - kScaleMin) * random.Uniform());
    const double ratio = std::exp(log_min + (log_max - log_min) * random.Uniform());
    const int w = static_cast<int>(std::lround(std::sqrt(target_area * ratio)));
    const int h = static_cast<int>(std::lround(std::sqrt(target_area / ratio)));
    if (w > 0 && w <= width && h > 0 && h <= height) {
      const int y = static_cast<int>(random.Below(static_cast<uint64_t>(height - h + 1)));
      const int x = static_cast<int>(random.Below(static_cast<uint64_t>(width - w + 1)));
      return {x, y, w, h};
    }
  }
  // Fallback: the whole image, cut to the nearest allowed aspect ratio.
  const double in_ratio = static_cast<double>(width) / height;
  int w = width, h = height;
  if (in_ratio < kRatioMin) {
    h = std::max(1, static_cast<int>(std::lround(w / kRatioMin)));
  } else if (in_ratio > kRatioMax) {
    w = std::max(1, static_cast<int>(std::lround(h * kRatioMax)));
  }
  h = std::min(h, height);
  w = std::min(w, width);
  return {(width - w) / 2, (height - h) / 2, w, h};
}

}  // namespace trainbench::image
