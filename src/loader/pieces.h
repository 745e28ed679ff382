// How one sample's bytes become reads: transfer_size pieces from its extent, widened to
// the engine's alignment (4 KiB under O_DIRECT, which needs aligned offsets, lengths and
// buffers). The read scheduler issues exactly these reads (ForEachPiece is their
// definition, spelled out for tests; the scheduler walks the same range a piece at a
// time). Pure functions.
#pragma once

#include <algorithm>
#include <cstdint>

namespace trainbench::loader {

inline uint64_t AlignDown(uint64_t value, uint64_t alignment) {
  return value / alignment * alignment;
}
inline uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// The piece size used: transfer_size, rounded up to the alignment.
inline uint64_t PieceSize(uint64_t transfer_size, uint64_t alignment) {
  return AlignUp(std::max<uint64_t>(1, transfer_size), alignment);
}

// Calls fn(offset, length) for each read of the extent [offset, offset + length).
template <typename Fn>
void ForEachPiece(uint64_t offset, uint64_t length, uint64_t piece_size, uint64_t alignment,
                  Fn&& fn) {
  uint64_t pos = AlignDown(offset, alignment);
  const uint64_t end = AlignUp(offset + length, alignment);
  while (pos < end) {
    const uint64_t n = std::min(piece_size, end - pos);
    fn(pos, n);
    pos += n;
  }
}

}  // namespace trainbench::loader
