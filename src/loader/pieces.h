// How one sample's bytes become reads: transfer_size pieces from its extent, widened to
// 4 KiB boundaries under O_DIRECT (which needs aligned offsets, lengths and buffers).
// The read scheduler issues exactly these reads, and the I/O characterization counts
// exactly these, so both share this one definition. Pure functions.
#pragma once

#include <algorithm>
#include <cstdint>

namespace trainbench::loader {

inline constexpr uint64_t kDirectAlignment = 4096;

inline uint64_t AlignDown(uint64_t value, uint64_t alignment) {
  return value / alignment * alignment;
}
inline uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// The piece size used: transfer_size, rounded up to the alignment under O_DIRECT.
inline uint64_t PieceSize(uint64_t transfer_size, bool direct) {
  const uint64_t size = std::max<uint64_t>(1, transfer_size);
  return direct ? AlignUp(size, kDirectAlignment) : size;
}

// Calls fn(offset, length) for each read of the extent [offset, offset + length).
template <typename Fn>
void ForEachPiece(uint64_t offset, uint64_t length, uint64_t piece_size, bool direct, Fn&& fn) {
  uint64_t pos = offset, end = offset + length;
  if (direct) {
    pos = AlignDown(pos, kDirectAlignment);
    end = AlignUp(end, kDirectAlignment);
  }
  while (pos < end) {
    const uint64_t n = std::min(piece_size, end - pos);
    fn(pos, n);
    pos += n;
  }
}

}  // namespace trainbench::loader
