// Reads a ZIP archive's central directory and local headers: which members there are,
// how each is stored, and at which offset its data starts. libzip decodes members but
// does not say where their bytes lie, and those offsets are what the loader reads.
// Reads only the end records, the directory and the local headers, never member data.
// Pure over the file; thread-safe as long as the file is used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::formats {

struct ZipMember {
  std::string name;
  uint16_t method = 0;  // 0 stored, 8 deflate
  uint16_t flags = 0;
  uint32_t crc = 0;
  uint64_t compressed_bytes = 0;
  uint64_t uncompressed_bytes = 0;
  uint64_t header_offset = 0;  // the local header
  uint64_t data_offset = 0;    // the first byte of the member's (possibly compressed) data
};

// Throws RuntimeError naming `name` and the offset of the first inconsistency.
std::vector<ZipMember> ReadZipDirectory(storage::RandomAccessFile& file, const std::string& name);

// The member called `member`, or throws RuntimeError naming the archive.
const ZipMember& FindZipMember(const std::vector<ZipMember>& members, const std::string& member,
                               const std::string& name);

// The first `max_bytes` (fewer if the member is shorter) of a member's uncompressed data.
std::vector<unsigned char> ReadZipMemberPrefix(storage::RandomAccessFile& file,
                                               const ZipMember& member, size_t max_bytes,
                                               const std::string& name);

}  // namespace trainbench::formats
