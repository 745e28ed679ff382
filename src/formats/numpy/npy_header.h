// The .npy array header (numpy's format.py): the magic string, a version, and a Python
// dict literal naming dtype, memory order and shape, padded so the data starts on a
// 64-byte boundary. Shared by the npy format and the members of npz archives.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::formats {

struct NpyHeader {
  std::string descr;  // numpy dtype string: "|u1", "<i8"
  bool fortran_order = false;
  std::vector<uint64_t> shape;
  uint64_t header_bytes = 0;  // where the data starts, relative to the header's first byte
  uint64_t Elements() const;
};

// A version 1.0 header (what np.save writes for small headers).
std::string EncodeNpyHeader(const std::string& descr, const std::vector<uint64_t>& shape);

// Parses a header (versions 1.0, 2.0 and 3.0) from the first `size` bytes of an array.
// Returns an error message, empty on success; `*needed` is set to the header's full
// length once the fixed prefix is there, so a caller can read more and try again.
std::string ParseNpyHeader(const unsigned char* data, size_t size, NpyHeader* header,
                           size_t* needed);

// Reads and parses the header at `offset` of `file`; throws RuntimeError naming `name`.
NpyHeader ReadNpyHeader(storage::RandomAccessFile& file, uint64_t offset, const std::string& name);

// Bytes per element of the dtypes trainbench writes or meets in DLIO's files (0 if unknown).
uint64_t NpyItemBytes(const std::string& descr);

}  // namespace trainbench::formats
