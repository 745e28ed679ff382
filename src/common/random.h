// Seeded pseudo-random numbers. Every random choice in trainbench derives from the
// workload seed through these, so the same seed gives the same bytes and order on
// every platform (std:: distributions differ between standard libraries; these don't).
// Not thread-safe: give each thread its own generator, derived with Mix().
#pragma once

#include <cstddef>
#include <cstdint>

namespace trainbench {

// SplitMix64 finaliser: turns related inputs (seed, file index) into independent seeds.
uint64_t Mix(uint64_t x);
uint64_t Mix(uint64_t a, uint64_t b);

// xoshiro256** : fast, small state, good statistical quality.
class Random {
 public:
  explicit Random(uint64_t seed);

  uint64_t Next();
  // Uniform in [0, bound), without modulo bias (Lemire's method).
  uint64_t Below(uint64_t bound);
  // Uniform in [0, 1).
  double Uniform();
  // Standard normal (Marsaglia polar method), deterministic given the state.
  double Normal();

 private:
  uint64_t s_[4];
  bool has_spare_ = false;
  double spare_ = 0;
};

// Fills a buffer with pseudo-random bytes from `seed` at several GB/s per core.
// Bytes depend only on (seed, offset within the stream of 8-byte words), so a file's
// contents are reproducible whatever the buffer size used to write it.
void FillRandom(uint64_t seed, uint64_t stream_offset, void* data, size_t size);

}  // namespace trainbench
