#include "common/random.h"

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

void FillRandom(uint64_t seed, uint64_t stream_offset, void* data, size_t size) {
  // A counter-based generator (one multiply-xorshift per word, four independent
  // lanes for instruction-level parallelism): any word is computable from its index,
  // which is what makes the stream position-addressable.
  auto* out = static_cast<unsigned char*>(data);
  const uint64_t key = Mix(seed);
  uint64_t word = stream_offset / 8;
  size_t skip = stream_offset % 8;
  auto word_at = [key](uint64_t i) {
    uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ULL ^ key;
    z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ULL;
    z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ULL;
    return z ^ (z >> 32);
  };
  if (skip) {
    const uint64_t w = word_at(word++);
    const size_t n = size < 8 - skip ? size : 8 - skip;
    std::memcpy(out, reinterpret_cast<const unsigned char*>(&w) + skip, n);
    out += n;
    size -= n;
  }
  while (size >= 32) {
    const uint64_t w[4] = {word_at(word), word_at(word + 1), word_at(word + 2), word_at(word + 3)};
    std::memcpy(out, w, 32);
    word += 4;
    out += 32;
    size -= 32;
  }
  while (size > 0) {
    const uint64_t w = word_at(word++);
    const size_t n = size < 8 ? size : 8;
    std::memcpy(out, &w, n);
    out += n;
    size -= n;
  }
}

}  // namespace trainbench
