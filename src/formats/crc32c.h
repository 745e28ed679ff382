// CRC32C (Castagnoli) through ISA-L, and TFRecord's masked form of it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace trainbench::formats {

uint32_t Crc32c(const void* data, size_t size, uint32_t crc = 0);

// TFRecord stores ((crc >> 15) | (crc << 17)) + 0xa282ead8 so that CRCs of CRCs stay strong.
inline uint32_t MaskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace trainbench::formats
