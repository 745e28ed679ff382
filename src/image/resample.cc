#include "image/resample.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace trainbench::image {

namespace {

constexpr int kPrecisionBits = 32 - 8 - 2;  // Pillow's, so rounding matches
constexpr int32_t kHalf = 1 << (kPrecisionBits - 1);

double Triangle(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

uint8_t Clip8(int32_t value) {
  const int32_t v = value >> kPrecisionBits;
  return static_cast<uint8_t>(std::clamp<int32_t>(v, 0, 255));
}

bool HaveAvx2() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace

void Resampler::HorizontalRow(const uint8_t* in, const Coefficients& c, int begin, int end,
                              uint8_t* t) {
  for (int xx = begin; xx < end; ++xx) {
    const int32_t* w = &c.weights[static_cast<size_t>(xx) * static_cast<size_t>(c.taps)];
    const uint8_t* p = in + static_cast<size_t>(c.first[static_cast<size_t>(xx)]) * 3;
    int32_t s0 = kHalf, s1 = kHalf, s2 = kHalf;
    for (int x = 0, n = c.count[static_cast<size_t>(xx)]; x < n; ++x, p += 3) {
      s0 += p[0] * w[x];
      s1 += p[1] * w[x];
      s2 += p[2] * w[x];
    }
    t[xx * 3 + 0] = Clip8(s0);
    t[xx * 3 + 1] = Clip8(s1);
    t[xx * 3 + 2] = Clip8(s2);
  }
}

#if defined(__x86_64__)
// The same sums, two output pixels at a time with each pixel's three channels in one 128-bit
// lane: one load, multiply and add per tap instead of six. Both pixels run the longer tap
// count; the shorter one's extra weights are zero (Compute pads with zeros), and its extra
// reads stay inside the buffer by the caller's margin. Saturating packs clamp as Clip8 does.
__attribute__((target("avx2"))) void Resampler::HorizontalRowAvx2(const uint8_t* in,
                                                                  const Coefficients& c,
                                                                  const int32_t* pair_weights,
                                                                  int out_width, uint8_t* t) {
  const size_t taps = static_cast<size_t>(c.taps);
  int xx = 0;
  for (; xx + 1 < out_width; xx += 2) {
    const size_t i = static_cast<size_t>(xx);
    const int32_t* w = pair_weights + i / 2 * taps * 8;
    const uint8_t* p0 = in + static_cast<size_t>(c.first[i]) * 3;
    const uint8_t* p1 = in + static_cast<size_t>(c.first[i + 1]) * 3;
    __m256i sum = _mm256_set1_epi32(kHalf);
    for (int x = 0, n = std::max(c.count[i], c.count[i + 1]); x < n;
         ++x, p0 += 3, p1 += 3, w += 8) {
      int32_t a, b;
      std::memcpy(&a, p0, sizeof a);
      std::memcpy(&b, p1, sizeof b);
      const __m256i pixels = _mm256_cvtepu8_epi32(_mm_setr_epi32(a, b, 0, 0));
      const __m256i weights = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));
      sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(pixels, weights));
    }
    const __m256i shifted = _mm256_srai_epi32(sum, kPrecisionBits);
    const __m128i words =
        _mm_packs_epi32(_mm256_castsi256_si128(shifted), _mm256_extracti128_si256(shifted, 1));
    const int64_t bytes = _mm_cvtsi128_si64(_mm_packus_epi16(words, words));
    const int32_t first = static_cast<int32_t>(bytes);
    const int32_t second = static_cast<int32_t>(bytes >> 32);
    // 4-byte stores of 3-byte pixels: the second overwrites the first's spare byte.
    std::memcpy(t + i * 3, &first, sizeof first);
    std::memcpy(t + i * 3 + 3, &second, sizeof second);
  }
  HorizontalRow(in, c, xx, out_width, t);
}
#else
void Resampler::HorizontalRowAvx2(const uint8_t* in, const Coefficients& c,
                                  const int32_t* /*pair_weights*/, int out_width, uint8_t* t) {
  HorizontalRow(in, c, 0, out_width, t);
}
#endif

void Resampler::PairWeights(const Coefficients& c, int out_width, std::vector<int32_t>& out) {
  const size_t taps = static_cast<size_t>(c.taps);
  out.assign(static_cast<size_t>(out_width / 2) * taps * 8, 0);
  for (size_t pair = 0; pair < static_cast<size_t>(out_width / 2); ++pair)
    for (size_t k = 0; k < taps; ++k)
      for (size_t lane = 0; lane < 8; ++lane)
        out[(pair * taps + k) * 8 + lane] = c.weights[(pair * 2 + lane / 4) * taps + k];
}

void Resampler::VerticalRow(const uint8_t* rows, size_t stride, const int32_t* w, int n,
                            size_t begin, size_t end, uint8_t* out) {
  for (size_t i = begin; i < end; ++i) {
    int32_t sum = kHalf;
    for (int y = 0; y < n; ++y) sum += rows[static_cast<size_t>(y) * stride + i] * w[y];
    out[i] = Clip8(sum);
  }
}

#if defined(__x86_64__)
// Eight bytes of the row at a time, summed over the taps in a register (no accumulator
// array round trip), then clamped and stored as the scalar loop does.
__attribute__((target("avx2"))) void Resampler::VerticalRowAvx2(const uint8_t* rows, size_t stride,
                                                                const int32_t* w, int n,
                                                                size_t width, uint8_t* out) {
  size_t i = 0;
  for (; i + 8 <= width; i += 8) {
    __m256i sum = _mm256_set1_epi32(kHalf);
    const uint8_t* p = rows + i;
    for (int y = 0; y < n; ++y, p += stride) {
      const __m256i pixels =
          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
      sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(pixels, _mm256_set1_epi32(w[y])));
    }
    const __m256i shifted = _mm256_srai_epi32(sum, kPrecisionBits);
    const __m128i words =
        _mm_packs_epi32(_mm256_castsi256_si128(shifted), _mm256_extracti128_si256(shifted, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), _mm_packus_epi16(words, words));
  }
  VerticalRow(rows, stride, w, n, i, width, out);
}
#else
void Resampler::VerticalRowAvx2(const uint8_t* rows, size_t stride, const int32_t* w, int n,
                                size_t width, uint8_t* out) {
  VerticalRow(rows, stride, w, n, 0, width, out);
}
#endif

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
  // One byte of slack: the SIMD row stores 4 bytes per 3-byte pixel.
  temp_.resize(temp_stride * static_cast<size_t>(std::max(rows, 1)) + 1);
  // The SIMD row reads past a pixel (4 bytes per tap, and up to `taps` pixels for the
  // shorter pixel of a pair), so it needs that much of the buffer after the row; the last
  // rows of the source may end at the end of its buffer.
  static const bool have_avx2 = HaveAvx2();
  if (have_avx2) PairWeights(horizontal_, out_width, pair_weights_);
  const size_t margin = static_cast<size_t>(horizontal_.taps + 2) * 3;
  for (int r = 0; r < rows; ++r) {
    const int row = row_first + r;
    const uint8_t* in = source.rgb + static_cast<size_t>(row) * source.stride;
    uint8_t* t = &temp_[static_cast<size_t>(r) * temp_stride];
    if (have_avx2 && static_cast<size_t>(source.height - 1 - row) * source.stride >= margin)
      HorizontalRowAvx2(in, horizontal_, pair_weights_.data(), out_width, t);
    else
      HorizontalRow(in, horizontal_, 0, out_width, t);
  }
  // Vertical pass: each output row sums whole temp rows, which vectorises well.
  for (int yy = 0; yy < out_height; ++yy) {
    const int32_t* w =
        &vertical_.weights[static_cast<size_t>(yy) * static_cast<size_t>(vertical_.taps)];
    const uint8_t* first =
        &temp_[static_cast<size_t>(vertical_.first[static_cast<size_t>(yy)] - row_first) *
               temp_stride];
    const int n = vertical_.count[static_cast<size_t>(yy)];
    uint8_t* o = out + static_cast<size_t>(yy) * temp_stride;
    if (have_avx2)
      VerticalRowAvx2(first, temp_stride, w, n, temp_stride, o);
    else
      VerticalRow(first, temp_stride, w, n, 0, temp_stride, o);
  }
}

}  // namespace trainbench::image
