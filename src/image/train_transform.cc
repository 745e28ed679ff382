#include "image/train_transform.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace trainbench::image {

namespace {

// ImageNet statistics in 0..255 units, as torchvision's Normalize after ToTensor.
constexpr std::array<float, 3> kMean = {0.485f * 255, 0.456f * 255, 0.406f * 255};
constexpr std::array<float, 3> kStd = {0.229f * 255, 0.224f * 255, 0.225f * 255};

}  // namespace

int ChooseDctScale(const CropBox& box, int size) {
  // 1/8, 1/4 and 1/2 have SIMD inverse DCTs in libjpeg-turbo; the other n/8 run in plain C
  // (and 4:2:0 chroma then needs 2n x 2n ones), slower than decoding at full size.
  for (int n : {1, 2, 4})
    if (box.width * n >= size * 8 && box.height * n >= size * 8) return n;
  return 8;
}

int TrainTransform::DecodeCropResize(const uint8_t* data, size_t size, const std::string& name,
                                     const CropBox& box, uint8_t* rgb) {
  return CropResize(decoder_.ReadHeader(data, size, name), box, rgb);
}

int TrainTransform::CropResize(const JpegHeader& header, const CropBox& box, uint8_t* rgb) {
  CropBox b = box;
  b.x = std::clamp(b.x, 0, header.width - 1);
  b.y = std::clamp(b.y, 0, header.height - 1);
  b.width = std::clamp(b.width, 1, header.width - b.x);
  b.height = std::clamp(b.height, 1, header.height - b.y);
  const int n = options_.dct_scaling ? ChooseDctScale(b, options_.size) : 8;
  // The box in scaled pixels, and the whole pixels that cover it.
  const double f = n / 8.0;
  const Box scaled{b.x * f, b.y * f, (b.x + b.width) * f, (b.y + b.height) * f};
  decoder_.Decode(n, static_cast<int>(std::floor(scaled.x0)),
                  static_cast<int>(std::floor(scaled.y0)), static_cast<int>(std::ceil(scaled.x1)),
                  static_cast<int>(std::ceil(scaled.y1)), region_);
  const RgbView view{region_.rgb.data(), region_.width, region_.height, region_.width * 3};
  const Box local{
      scaled.x0 - region_.x, scaled.y0 - region_.y,
      std::min(scaled.x1, static_cast<double>(region_.scaled_image_width)) - region_.x,
      std::min(scaled.y1, static_cast<double>(region_.scaled_image_height)) - region_.y};
  resampler_.Resize(view, local, options_.size, options_.size, rgb);
  return n;
}

void TrainTransform::Normalize(const uint8_t* rgb, bool flip, float* out) const {
  const int s = options_.size;
  std::array<float, 3> scale{}, shift{};
  for (size_t c = 0; c < 3; ++c) {
    scale[c] = 1.0f / kStd[c];
    shift[c] = -kMean[c] / kStd[c];
  }
  const size_t plane = static_cast<size_t>(s) * static_cast<size_t>(s);
  for (int y = 0; y < s; ++y) {
    const uint8_t* row = rgb + static_cast<size_t>(y) * static_cast<size_t>(s) * 3;
    for (int x = 0; x < s; ++x) {
      const uint8_t* p = row + static_cast<size_t>(flip ? s - 1 - x : x) * 3;
      const size_t pixel = static_cast<size_t>(y) * static_cast<size_t>(s) + static_cast<size_t>(x);
      if (options_.channels_last) {
        float* o = out + pixel * 3;
        for (size_t c = 0; c < 3; ++c) o[c] = p[c] * scale[c] + shift[c];
      } else {
        for (size_t c = 0; c < 3; ++c) out[c * plane + pixel] = p[c] * scale[c] + shift[c];
      }
    }
  }
}

void TrainTransform::Apply(const uint8_t* data, size_t size, const std::string& name,
                           Random& random, float* out) {
  const JpegHeader header = decoder_.ReadHeader(data, size, name);
  Augmentation aug;
  aug.box = RandomResizedCropBox(header.width, header.height, random);
  aug.flip = random.Uniform() < 0.5;
  rgb_.resize(static_cast<size_t>(options_.size) * static_cast<size_t>(options_.size) * 3);
  CropResize(header, aug.box, rgb_.data());
  Normalize(rgb_.data(), aug.flip, out);
}

}  // namespace trainbench::image
