// Resizes a box of an 8-bit RGB image with Pillow's BILINEAR filter: a triangle kernel
// widened by the downscale factor (antialiased), fixed-point weights with 22 fraction bits,
// horizontal pass then vertical. torchvision's PIL-based RandomResizedCrop resizes this way,
// so the same crop gives the same pixels (within rounding) in trainbench and in PyTorch.
// Thread-safe (no shared state); the scratch object is per caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace trainbench::image {

// Source pixels: `rgb` with `width` x `height` pixels and `stride` bytes per row.
struct RgbView {
  const uint8_t* rgb = nullptr;
  int width = 0;
  int height = 0;
  int stride = 0;
};

// A box in source pixel coordinates. Samples outside [x0, x1) x [y0, y1) rounded outwards
// are never read, as when Pillow resizes an image cropped to that box.
struct Box {
  double x0 = 0;
  double y0 = 0;
  double x1 = 0;
  double y1 = 0;
};

class Resampler {
 public:
  // Writes out_width x out_height x 3 bytes to `out` (tightly packed rows).
  void Resize(const RgbView& source, const Box& box, int out_width, int out_height, uint8_t* out);

 private:
  struct Coefficients {
    int taps = 0;
    std::vector<int> first;  // first source index per output pixel
    std::vector<int> count;  // taps used per output pixel
    std::vector<int32_t> weights;
  };
  static void Compute(double in0, double in1, int limit0, int limit1, int out_size,
                      Coefficients& c);
  // One row of the horizontal pass: output pixels [begin, end) to `t`.
  static void HorizontalRow(const uint8_t* in, const Coefficients& c, int begin, int end,
                            uint8_t* t);
  // The whole row the same; writes one byte past the row and reads past it (see Resize).
  // `pair_weights` from PairWeights.
  static void HorizontalRowAvx2(const uint8_t* in, const Coefficients& c,
                                const int32_t* pair_weights, int out_width, uint8_t* t);
  // Each pair of output pixels' weights per tap as the AVX2 row's multiplier: the first
  // pixel's weight in four lanes, then the second's.
  static void PairWeights(const Coefficients& c, int out_width, std::vector<int32_t>& out);
  // One row of the vertical pass: bytes [begin, end) of the sum over n rows `stride` apart.
  static void VerticalRow(const uint8_t* rows, size_t stride, const int32_t* w, int n, size_t begin,
                          size_t end, uint8_t* out);
  static void VerticalRowAvx2(const uint8_t* rows, size_t stride, const int32_t* w, int n,
                              size_t width, uint8_t* out);

  Coefficients horizontal_;
  Coefficients vertical_;
  std::vector<int32_t> pair_weights_;
  std::vector<uint8_t> temp_;
};

}  // namespace trainbench::image
