#include "image/train_transform.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "image/normalize_row.h"
#include "image/png_decoder.h"

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
  return CropResize(ReadHeader(data, size, name), box, rgb);
}

JpegHeader TrainTransform::ReadHeader(const uint8_t* data, size_t size, const std::string& name) {
  // By content, not by name: ImageNet has PNGs named .JPEG. A PNG has no region decode, so
  // it is decoded whole here and cropped from memory.
  png_ = LooksLikePng(data, size);
  if (!png_) return decoder_.ReadHeader(data, size, name);
  DecodePng(data, size, name, region_);
  return {region_.width, region_.height};
}

int TrainTransform::CropResize(const JpegHeader& header, const CropBox& box, uint8_t* rgb) {
  CropBox b = box;
  b.x = std::clamp(b.x, 0, header.width - 1);
  b.y = std::clamp(b.y, 0, header.height - 1);
  b.width = std::clamp(b.width, 1, header.width - b.x);
  b.height = std::clamp(b.height, 1, header.height - b.y);
  const int n = options_.dct_scaling && !png_ ? ChooseDctScale(b, options_.size) : 8;
  // The box in scaled pixels, and the whole pixels that cover it.
  const double f = n / 8.0;
  const Box scaled{b.x * f, b.y * f, (b.x + b.width) * f, (b.y + b.height) * f};
  if (!png_)
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

TrainTransform::TrainTransform(const TransformOptions& options) : options_(options) {
  // value * scale + shift, exactly as PlanarRowAvx2 computes it, so both paths agree.
  for (size_t c = 0; c < 3; ++c) {
    scale_[c] = 1.0f / kStd[c];
    shift_[c] = -kMean[c] / kStd[c];
    for (size_t v = 0; v < 256; ++v) lut_[c][v] = static_cast<float>(v) * scale_[c] + shift_[c];
  }
}

void TrainTransform::Normalize(const uint8_t* rgb, bool flip, float* out) const {
  // A table per channel: one load per value, and the flip is just the direction the row is
  // read in. Rows stay separate loops per layout so each inner loop has no branches.
  const size_t s = static_cast<size_t>(options_.size);
  const size_t plane = s * s;
  const float* lut_r = lut_[0].data();
  const float* lut_g = lut_[1].data();
  const float* lut_b = lut_[2].data();
  static const bool have_avx2 = HavePlanarRowAvx2();
  for (size_t y = 0; y < s; ++y) {
    const uint8_t* row = rgb + y * s * 3;
    const ptrdiff_t step = flip ? -3 : 3;
    if (options_.channels_last) {
      const uint8_t* p = flip ? row + (s - 1) * 3 : row;
      float* o = out + y * s * 3;
      for (size_t x = 0; x < s; ++x, p += step, o += 3) {
        o[0] = lut_r[p[0]];
        o[1] = lut_g[p[1]];
        o[2] = lut_b[p[2]];
      }
    } else {
      float* r = out + y * s;
      float* g = r + plane;
      float* b = g + plane;
      const size_t done =
          have_avx2 ? static_cast<size_t>(PlanarRowAvx2(row, static_cast<int>(s), flip,
                                                        scale_.data(), shift_.data(), r, g, b))
                    : 0;
      const uint8_t* p = flip ? row + (s - 1 - done) * 3 : row + done * 3;
      for (size_t x = done; x < s; ++x, p += step) {
        r[x] = lut_r[p[0]];
        g[x] = lut_g[p[1]];
        b[x] = lut_b[p[2]];
      }
    }
  }
}

bool TrainTransform::CropResizeRandom(const uint8_t* data, size_t size, const std::string& name,
                                      Random& random, uint8_t* rgb) {
  const JpegHeader header = ReadHeader(data, size, name);
  Augmentation aug;
  aug.box = RandomResizedCropBox(header.width, header.height, random);
  aug.flip = random.Uniform() < 0.5;
  CropResize(header, aug.box, rgb);
  return aug.flip;
}

void TrainTransform::Apply(const uint8_t* data, size_t size, const std::string& name,
                           Random& random, float* out) {
  rgb_.resize(static_cast<size_t>(options_.size) * static_cast<size_t>(options_.size) * 3);
  const bool flip = CropResizeRandom(data, size, name, random, rgb_.data());
  Normalize(rgb_.data(), flip, out);
}

void TrainTransform::ApplyToBytes(const uint8_t* data, size_t size, const std::string& name,
                                  Random& random, uint8_t* out) {
  const size_t s = static_cast<size_t>(options_.size);
  if (!CropResizeRandom(data, size, name, random, out)) return;
  // Mirror each row in place, pixel by pixel.
  for (size_t y = 0; y < s; ++y) {
    uint8_t* row = out + y * s * 3;
    for (size_t l = 0, r = s - 1; l < r; ++l, --r)
      for (size_t c = 0; c < 3; ++c) std::swap(row[l * 3 + c], row[r * 3 + c]);
  }
}

}  // namespace trainbench::image
