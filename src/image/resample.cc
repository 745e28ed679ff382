#include "image/resample.h"

#include <algorithm>
#include <cmath>

namespace trainbench::image {

namespace {

constexpr int kPrecisionBits = 32 - 8 - 2;  // Pillow's, so rounding matches

double Triangle(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

uint8_t Clip8(int32_t value) {
  const int32_t v = value >> kPrecisionBits;
  return static_cast<uint8_t>(std::clamp<int32_t>(v, 0, 255));
}

}  // namespace

void Resampler::Compute(double in0, double in1, int limit0, int limit1, int out_size,
                        Coefficients& c) {
  const double scale = (in1 - in0) / out_size;
  const double filter_scale = std::max(scale, 1.0);
  const double support = filter_scale;  // the triangle's support is 1
  c.taps = static_cast<int>(std::ceil(support)) * 2 + 1;
  c.first.assign(static_cast<size_t>(out_size), 0);
  c.count.assign(static_cast<size_t>(out_size), 0);
  c.weights.assign(static_cast<size_t>(out_size) * static_cast<size_t>(c.taps), 0);
  std::vector<double> k(static_cast<size_t>(c.taps));
  for (int xx = 0; xx < out_size; ++xx) {
    const double center = in0 + (xx + 0.5) * scale;
    const int lo = std::max(static_cast<int>(center - support + 0.5), limit0);
    const int hi = std::min(static_cast<int>(center + support + 0.5), limit1);
    const int n = std::clamp(hi - lo, 0, c.taps);
    double total = 0;
    for (int x = 0; x < n; ++x) {
      k[static_cast<size_t>(x)] = Triangle((x + lo - center + 0.5) / filter_scale);
      total += k[static_cast<size_t>(x)];
    }
    int32_t* w = &c.weights[static_cast<size_t>(xx) * static_cast<size_t>(c.taps)];
    for (int x = 0; x < n; ++x) {
      const double normalised = total != 0 ? k[static_cast<size_t>(x)] / total : 0;
      w[x] = static_cast<int32_t>(std::trunc(0.5 + normalised * (1 << kPrecisionBits)));
    }
    c.first[static_cast<size_t>(xx)] = lo;
    c.count[static_cast<size_t>(xx)] = n;
  }
}

void Resampler::Resize(const RgbView& source, const Box& box, int out_width, int out_height,
                       uint8_t* out) {
  const int x_limit0 = std::max(0, static_cast<int>(std::floor(box.x0)));
  const int x_limit1 = std::min(source.width, static_cast<int>(std::ceil(box.x1)));
  const int y_limit0 = std::max(0, static_cast<int>(std::floor(box.y0)));
  const int y_limit1 = std::min(source.height, static_cast<int>(std::ceil(box.y1)));
  Compute(box.x0, box.x1, x_limit0, x_limit1, out_width, horizontal_);
  Compute(box.y0, box.y1, y_limit0, y_limit1, out_height, vertical_);

  // Horizontal pass over only the rows the vertical pass reads.
  const int row_first = vertical_.first.front();
  const int row_last = vertical_.first.back() + vertical_.count.back();
  const int rows = std::max(0, row_last - row_first);
  const size_t temp_stride = static_cast<size_t>(out_width) * 3;
  temp_.resize(temp_stride * static_cast<size_t>(std::max(rows, 1)));
  const int32_t half = 1 << (kPrecisionBits - 1);
  for (int r = 0; r < rows; ++r) {
    const uint8_t* in = source.rgb + static_cast<size_t>(row_first + r) * source.stride;
    uint8_t* t = &temp_[static_cast<size_t>(r) * temp_stride];
    for (int xx = 0; xx < out_width; ++xx) {
      const int32_t* w =
          &horizontal_.weights[static_cast<size_t>(xx) * static_cast<size_t>(horizontal_.taps)];
      const uint8_t* p = in + static_cast<size_t>(horizontal_.first[static_cast<size_t>(xx)]) * 3;
      int32_t s0 = half, s1 = half, s2 = half;
      for (int x = 0, n = horizontal_.count[static_cast<size_t>(xx)]; x < n; ++x, p += 3) {
        s0 += p[0] * w[x];
        s1 += p[1] * w[x];
        s2 += p[2] * w[x];
      }
      t[xx * 3 + 0] = Clip8(s0);
      t[xx * 3 + 1] = Clip8(s1);
      t[xx * 3 + 2] = Clip8(s2);
    }
  }
  // Vertical pass: row sums over whole rows vectorise well.
  std::vector<int32_t> acc(temp_stride);
  for (int yy = 0; yy < out_height; ++yy) {
    const int32_t* w =
        &vertical_.weights[static_cast<size_t>(yy) * static_cast<size_t>(vertical_.taps)];
    const int first = vertical_.first[static_cast<size_t>(yy)] - row_first;
    std::fill(acc.begin(), acc.end(), half);
    for (int y = 0, n = vertical_.count[static_cast<size_t>(yy)]; y < n; ++y) {
      const uint8_t* t = &temp_[static_cast<size_t>(first + y) * temp_stride];
      const int32_t weight = w[y];
      for (size_t i = 0; i < temp_stride; ++i) acc[i] += t[i] * weight;
    }
    uint8_t* o = out + static_cast<size_t>(yy) * temp_stride;
    for (size_t i = 0; i < temp_stride; ++i) o[i] = Clip8(acc[i]);
  }
}

}  // namespace trainbench::image
