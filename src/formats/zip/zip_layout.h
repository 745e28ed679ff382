// Field layout of the ZIP records trainbench writes and reads (PKWARE APPNOTE 6.3):
// signatures, fixed sizes, and little-endian field packing. Shared by ZipWriter and
// the zip directory reader. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace trainbench::formats::zip_records {

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr uint32_t kDataDescriptorSignature = 0x08074b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint32_t kEndSignature = 0x06054b50;

constexpr size_t kLocalHeaderBytes = 30;
constexpr size_t kCentralHeaderBytes = 46;
constexpr size_t kZip64EndBytes = 56;
constexpr size_t kZip64LocatorBytes = 20;
constexpr size_t kEndBytes = 22;
constexpr size_t kMaxCommentBytes = 0xffff;

constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint16_t kVersionZip64 = 45;  // 4.5: ZIP64 extensions
constexpr uint16_t kMethodStored = 0;
constexpr uint16_t kMethodDeflated = 8;
constexpr uint16_t kFlagDataDescriptor = 1 << 3;
constexpr uint32_t kUnknown32 = 0xffffffff;  // "see the ZIP64 extra field"
// 1980-01-01 00:00:00 in MS-DOS form: a fixed time keeps same-seed archives identical.
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;
constexpr uint16_t kDosTime = 0;

// Appends little-endian fields (the hosts trainbench supports are little-endian).
class Packer {
 public:
  Packer& U16(uint16_t v) { return Raw(&v, 2); }
  Packer& U32(uint32_t v) { return Raw(&v, 4); }
  Packer& U64(uint64_t v) { return Raw(&v, 8); }
  Packer& Bytes(const std::string& s) { return Raw(s.data(), s.size()); }
  const std::string& str() const { return bytes_; }

 private:
  Packer& Raw(const void* p, size_t n) {
    bytes_.append(static_cast<const char*>(p), n);
    return *this;
  }
  std::string bytes_;
};

inline uint16_t Get16(const unsigned char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline uint32_t Get32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t Get64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace trainbench::formats::zip_records
