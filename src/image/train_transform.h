// The training-time image transform of the ImageNet reference recipe, in one pass per image:
// JPEG decode (only the crop's region, DCT-scaled down when the crop is much larger than the
// output) -> RandomResizedCrop to size x size -> random horizontal flip -> normalise with
// ImageNet's mean and std into floats, channel-planar (NCHW) or interleaved (channels-last).
// The image may be a JPEG or a PNG, told apart by content. ApplyToBytes stops before
// normalising, for trainers that normalise on the accelerator (a quarter of the bytes to copy).
// Not thread-safe: one TrainTransform per worker thread (it owns a decoder and scratch memory).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/random.h"
#include "image/jpeg_decoder.h"
#include "image/random_resized_crop.h"
#include "image/resample.h"

namespace trainbench::image {

struct TransformOptions {
  int size = 224;
  bool dct_scaling = true;     // decode at n/8 when the crop still covers `size` after it
  bool channels_last = false;  // write HWC instead of CHW
};

// The per-image random choices, drawn before decoding (they need only the header).
struct Augmentation {
  CropBox box;
  bool flip = false;
};

class TrainTransform {
 public:
  explicit TrainTransform(const TransformOptions& options);

  // Decodes `data` (a JPEG named `name` in errors) with a random crop and flip drawn from
  // `random`, writing 3 x size x size floats to `out`.
  void Apply(const uint8_t* data, size_t size, const std::string& name, Random& random, float* out);

  // The same random crop and flip, written as size x size x 3 RGB bytes (HWC) to `out`.
  void ApplyToBytes(const uint8_t* data, size_t size, const std::string& name, Random& random,
                    uint8_t* out);

  // The decode, crop and resize steps alone with a given box: size x size x 3 RGB bytes.
  // Returns the DCT scale used (n of n/8). Tests compare this with Pillow.
  int DecodeCropResize(const uint8_t* data, size_t size, const std::string& name,
                       const CropBox& box, uint8_t* rgb);

  // Flip and normalise size x size x 3 RGB bytes into floats.
  void Normalize(const uint8_t* rgb, bool flip, float* out) const;

  const TransformOptions& options() const { return options_; }

 private:
  // Reads a JPEG's header, or decodes a whole PNG into region_.
  JpegHeader ReadHeader(const uint8_t* data, size_t size, const std::string& name);
  // Decodes the image whose header was just read.
  int CropResize(const JpegHeader& header, const CropBox& box, uint8_t* rgb);
  // Draws the crop and flip, decodes and resizes to `rgb`; returns the flip.
  bool CropResizeRandom(const uint8_t* data, size_t size, const std::string& name, Random& random,
                        uint8_t* rgb);

  TransformOptions options_;
  JpegDecoder decoder_;
  Resampler resampler_;
  DecodedRegion region_;
  bool png_ = false;  // the image whose header was read is a PNG, decoded whole into region_
  std::vector<uint8_t> rgb_;
  std::array<float, 3> scale_{};                 // 1 / std per channel
  std::array<float, 3> shift_{};                 // -mean / std per channel
  std::array<std::array<float, 256>, 3> lut_{};  // normalised value of each byte, per channel
};

// The smallest n of 1, 2, 4 (or else 8) with the box at n/8 still at least `size` on both sides.
int ChooseDctScale(const CropBox& box, int size);

}  // namespace trainbench::image
