// Reads a Parquet file's ends: "PAR1" at both, the footer's length, and the footer
// (FileMetaData), with errors that name the file and the offset. Thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "formats/parquet/parquet_metadata.h"
#include "storage/storage.h"

namespace trainbench::formats::parquet {

constexpr char kMagic[] = "PAR1";
constexpr uint64_t kMagicBytes = 4;
// What follows the footer: its length (u32, little-endian) and the magic.
constexpr uint64_t kTailBytes = 8;

struct Footer {
  FileMetaData metadata;
  uint64_t offset = 0;  // where the footer starts: the end of the row groups
};

// Throws RuntimeError "<file>: bad Parquet file at offset N: ..." (ThrowBadFile).
Footer ReadFooter(storage::RandomAccessFile& file, uint64_t size, const std::string& name);

// Reads exactly `size` bytes at `offset`, or throws naming the file and offset.
void ReadExactly(storage::RandomAccessFile& file, uint64_t offset, void* buffer, size_t size,
                 const std::string& name);

}  // namespace trainbench::formats::parquet
