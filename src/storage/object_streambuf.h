// A std::streambuf over an object of a storage, read a chunk at a time, so that a parser
// taking a std::istream (nlohmann::json's) reads a large object (a manifest of a million
// files) without holding it whole. Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <streambuf>
#include <vector>

#include "storage/storage.h"

namespace trainbench::storage {

class ObjectStreambuf : public std::streambuf {
 public:
  static constexpr size_t kChunkBytes = 1 << 20;

  ObjectStreambuf(Storage& storage, const std::string& path);

 protected:
  int_type underflow() override;

 private:
  std::unique_ptr<RandomAccessFile> file_;
  uint64_t offset_ = 0;
  std::vector<char> chunk_;
};

}  // namespace trainbench::storage
