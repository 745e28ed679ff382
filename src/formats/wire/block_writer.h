// Buffers small appends into large blocks for an AtomicWriter, and lets a writer fill
// the block in place (random payload generated straight into the output buffer, so
// each byte is touched once before the write system call).
// Not thread-safe: one per file being written.
#pragma once

#include <cstdint>
#include <vector>

#include "storage/storage.h"

namespace trainbench::formats {

class BlockWriter {
 public:
  static constexpr size_t kBlockBytes = 1 << 20;  // matches the bench's fio bs=1M

  explicit BlockWriter(storage::AtomicWriter& out, size_t block_bytes = kBlockBytes);

  void Append(const void* data, size_t size);
  // Appends the first `size` bytes of `seed`'s random stream (FillRandom's), generated
  // straight into the buffer: every format's payload, so the same seed writes the same bytes
  // whatever the format around them.
  void AppendRandom(uint64_t seed, uint64_t size);
  // A writable span of up to `max` bytes inside the buffer; call Advance(n) after
  // filling n of them. Never returns an empty span.
  unsigned char* Space(size_t max, size_t* available);
  void Advance(size_t n);
  // Bytes appended so far (the offset of the next byte in the file).
  uint64_t Offset() const { return flushed_ + used_; }
  void Flush();

 private:
  storage::AtomicWriter& out_;
  std::vector<unsigned char> buffer_;
  size_t used_ = 0;
  uint64_t flushed_ = 0;
};

}  // namespace trainbench::formats
