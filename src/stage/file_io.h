// Reads and writes at an offset of an open file (pread, pwrite), carried on over interrupted
// calls and short counts: the part files' bytes, which arrive out of order, are read back in
// order, hashed and repaired through these. Thread-safe (no state).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace trainbench::stage {

// Reads at most `size` (> 0) bytes at `offset`; returns how many (> 0). Throws IoError
// "cannot read WHAT at offset N: WHY" on an error or at the end of the file.
size_t PreadSome(int fd, void* data, size_t size, uint64_t offset, std::string_view what);
// Reads all `size` bytes at `offset`, throwing as PreadSome does.
void PreadAll(int fd, void* data, size_t size, uint64_t offset, std::string_view what);
// Writes all `size` bytes at `offset`. Returns 0, or the errno of the write that failed (EIO
// for one that wrote nothing), with `*written` the bytes written before it.
int PwriteAll(int fd, const void* data, size_t size, uint64_t offset, size_t* written);

}  // namespace trainbench::stage
