#include "formats/wire/block_writer.h"

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "common/interrupt.h"
#include "common/random.h"

namespace trainbench::formats {

BlockWriter::BlockWriter(storage::AtomicWriter& out, size_t block_bytes)
    : out_(out), buffer_(block_bytes) {}

void BlockWriter::Append(const void* data, size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (size > 0) {
    size_t available = 0;
    unsigned char* dst = Space(size, &available);
    std::memcpy(dst, p, available);
    Advance(available);
    p += available;
    size -= available;
  }
}

void BlockWriter::AppendRandom(uint64_t seed, uint64_t size) {
  for (uint64_t done = 0; done < size;) {
    size_t n = 0;
    unsigned char* dst = Space(size - done, &n);
    FillRandom(seed, done, dst, n);
    Advance(n);
    done += n;
  }
}

unsigned char* BlockWriter::Space(size_t max, size_t* available) {
  if (used_ == buffer_.size()) Flush();
  *available = std::min(max, buffer_.size() - used_);
  return buffer_.data() + used_;
}

void BlockWriter::Advance(size_t n) { used_ += n; }

void BlockWriter::Flush() {
  if (used_ == 0) return;
  // Checked once per block so Ctrl-C stops a multi-GB file within milliseconds.
  if (InterruptRequested()) throw Interrupted();
  out_.Append(buffer_.data(), used_);
  flushed_ += used_;
  used_ = 0;
}

}  // namespace trainbench::formats
