// CRCs through ISA-L: CRC32C (Castagnoli) and TFRecord's masked form of it, and the
// CRC-32 of ZIP and gzip (npz members). Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace trainbench::formats {

uint32_t Crc32c(const void* data, size_t size, uint32_t crc = 0);

// CRC-32 (IEEE 802.3, reflected), the same value as zlib's crc32().
uint32_t Crc32(const void* data, size_t size, uint32_t crc = 0);

// TFRecord stores ((crc >> 15) | (crc << 17)) + 0xa282ead8 so that CRCs of CRCs stay strong.
inline uint32_t MaskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace trainbench::formats
