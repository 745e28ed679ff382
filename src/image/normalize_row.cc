#include "image/normalize_row.h"

#include <array>
#include <cstddef>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace trainbench::image {

#if defined(__x86_64__)

namespace {

using ShuffleMask = std::array<int8_t, 16>;

// Eight pixels are 24 bytes: `low` holds bytes 0..15, `high` bytes 16..23. The mask for
// channel c picks that channel of pixel j (or of 7 - j when flipped) into byte j of its half;
// -1 zeroes the byte so the two halves can be ORed.
constexpr ShuffleMask Mask(int channel, bool flip, bool high) {
  ShuffleMask mask{};
  for (int j = 0; j < 16; ++j) mask[static_cast<size_t>(j)] = -1;
  for (int j = 0; j < 8; ++j) {
    const int byte = (flip ? 7 - j : j) * 3 + channel;
    if ((byte >= 16) == high)
      mask[static_cast<size_t>(j)] = static_cast<int8_t>(high ? byte - 16 : byte);
  }
  return mask;
}

// [flip][channel][half]
constexpr std::array<std::array<std::array<ShuffleMask, 2>, 3>, 2> kMasks = {{
    {{{Mask(0, false, false), Mask(0, false, true)},
      {Mask(1, false, false), Mask(1, false, true)},
      {Mask(2, false, false), Mask(2, false, true)}}},
    {{{Mask(0, true, false), Mask(0, true, true)},
      {Mask(1, true, false), Mask(1, true, true)},
      {Mask(2, true, false), Mask(2, true, true)}}},
}};

__attribute__((target("avx2"))) __m256 Channel(__m128i low, __m128i high,
                                               const std::array<ShuffleMask, 2>& masks, float scale,
                                               float shift) {
  const __m128i bytes = _mm_or_si128(
      _mm_shuffle_epi8(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(masks[0].data()))),
      _mm_shuffle_epi8(high, _mm_loadu_si128(reinterpret_cast<const __m128i*>(masks[1].data()))));
  const __m256 values = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
  // Multiply then add (no FMA), so results equal the scalar table's value * scale + shift.
  return _mm256_add_ps(_mm256_mul_ps(values, _mm256_set1_ps(scale)), _mm256_set1_ps(shift));
}

}  // namespace

bool HavePlanarRowAvx2() { return __builtin_cpu_supports("avx2"); }

__attribute__((target("avx2"))) int PlanarRowAvx2(const uint8_t* row, int width, bool flip,
                                                  const float* scale, const float* shift, float* r,
                                                  float* g, float* b) {
  const int n = width / 8 * 8;
  const auto& masks = kMasks[flip ? 1 : 0];
  float* planes[3] = {r, g, b};
  for (int x = 0; x < n; x += 8) {
    // Flipped, output pixels x..x+7 are source pixels width-8-x..width-1-x reversed.
    const uint8_t* p = row + static_cast<size_t>(flip ? width - 8 - x : x) * 3;
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i high = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + 16));
    for (size_t c = 0; c < 3; ++c)
      _mm256_storeu_ps(planes[c] + x, Channel(low, high, masks[c], scale[c], shift[c]));
  }
  return n;
}

#else

bool HavePlanarRowAvx2() { return false; }

int PlanarRowAvx2(const uint8_t*, int, bool, const float*, const float*, float*, float*, float*) {
  return 0;
}

#endif

}  // namespace trainbench::image
