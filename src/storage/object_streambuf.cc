#include "storage/object_streambuf.h"

namespace trainbench::storage {

ObjectStreambuf::ObjectStreambuf(Storage& storage, const std::string& path)
    : file_(storage.Open(path)), chunk_(kChunkBytes) {
  setg(chunk_.data(), chunk_.data(), chunk_.data());
}

ObjectStreambuf::int_type ObjectStreambuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  const size_t n = file_->ReadAt(offset_, chunk_.data(), chunk_.size());
  if (n == 0) return traits_type::eof();
  offset_ += n;
  setg(chunk_.data(), chunk_.data(), chunk_.data() + n);
  return traits_type::to_int_type(*gptr());
}

}  // namespace trainbench::storage
