#include "common/random.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace trainbench {
namespace {
__extension__ typedef unsigned __int128 Uint128;  // GCC/Clang builtin, for Lemire's method
inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t Mix(uint64_t a, uint64_t b) {
  return Mix(Mix(a) ^ Rotl(Mix(b + 0x632be59bd9b4e019ULL), 17));
}

Random::Random(uint64_t seed) {
  uint64_t x = seed;
  for (auto& s : s_) {
    x = Mix(x);
    s = x;
  }
}

uint64_t Random::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint64_t Random::Below(uint64_t bound) {
  if (bound == 0) return 0;
  Uint128 m = static_cast<Uint128>(Next()) * bound;
  auto low = static_cast<uint64_t>(m);
  if (low < bound) {
    const uint64_t threshold = -bound % bound;
    while (low < threshold) {
      m = static_cast<Uint128>(Next()) * bound;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

double Random::Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

double Random::Normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u, v, s;
  do {
    u = Uniform() * 2 - 1;
    v = Uniform() * 2 - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  const double f = std::sqrt(-2 * std::log(s) / s);
  spare_ = v * f;
  has_spare_ = true;
  return u * f;
}

namespace {
constexpr size_t kBlockBytes = 4096;
constexpr size_t kLanes = 8;

// One 4 KiB block of the stream: eight xorshift128+ lanes seeded from (key, block),
// written lane-interleaved. Plain arrays and fixed trip counts let the compiler
// vectorise it (SSE2 everywhere, AVX2 or AVX-512 where the CPU has them), which is what makes
// datagen's bytes cheaper than the copy into the page cache.
__attribute__((target_clones("avx512f", "avx2", "default"))) void FillBlock(uint64_t key,
                                                                            uint64_t block,
                                                                            unsigned char* out) {
  uint64_t a[kLanes], b[kLanes];
  for (size_t l = 0; l < kLanes; ++l) {
    a[l] = Mix(key ^ block, l);
    b[l] = Mix(a[l]);
  }
  for (size_t w = 0; w < kBlockBytes / 8; w += kLanes) {
    for (size_t l = 0; l < kLanes; ++l) {
      uint64_t x = a[l];
      const uint64_t y = b[l];
      a[l] = y;
      x ^= x << 23;
      b[l] = x ^ y ^ (x >> 17) ^ (y >> 26);
      const uint64_t word = b[l] + y;
      std::memcpy(out + 8 * (w + l), &word, 8);  // the output need not be aligned
    }
  }
}
}  // namespace

void FillRandom(uint64_t seed, uint64_t stream_offset, void* data, size_t size) {
  // Bytes are a function of (seed, position) only: the stream is cut into 4 KiB blocks,
  // each generated from its index, so any range can be produced without the ones before.
  auto* out = static_cast<unsigned char*>(data);
  const uint64_t key = Mix(seed);
  uint64_t block = stream_offset / kBlockBytes;
  size_t skip = stream_offset % kBlockBytes;
  alignas(64) unsigned char scratch[kBlockBytes];
  while (size > 0) {
    if (skip == 0 && size >= kBlockBytes) {
      FillBlock(key, block++, out);
      out += kBlockBytes;
      size -= kBlockBytes;
      continue;
    }
    FillBlock(key, block++, scratch);
    const size_t n = std::min(size, kBlockBytes - skip);
    std::memcpy(out, scratch + skip, n);
    out += n;
    size -= n;
    skip = 0;
  }
}

}  // namespace trainbench
