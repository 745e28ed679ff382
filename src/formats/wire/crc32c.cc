#include "formats/wire/crc32c.h"

#include <isa-l/crc.h>

#include <algorithm>

namespace trainbench::formats {

uint32_t Crc32c(const void* data, size_t size, uint32_t crc) {
  // ISA-L's crc32_iscsi works on the raw (non-inverted) register and an int length.
  const auto* p = static_cast<const unsigned char*>(data);
  uint32_t state = ~crc;
  while (size > 0) {
    const size_t n = std::min<size_t>(size, 1u << 30);
    state = crc32_iscsi(const_cast<unsigned char*>(p), static_cast<int>(n), state);
    p += n;
    size -= n;
  }
  return ~state;
}

uint32_t Crc32(const void* data, size_t size, uint32_t crc) {
  // Unlike crc32_iscsi, crc32_gzip_refl takes and returns the finished (inverted) value.
  return crc32_gzip_refl(crc, static_cast<const unsigned char*>(data), size);
}

}  // namespace trainbench::formats
