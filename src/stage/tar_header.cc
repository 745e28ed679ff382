#include "stage/tar_header.h"

#include <fmt/format.h>

#include <cstring>

#include "common/error.h"
#include "common/strings.h"

namespace trainbench::stage {
namespace {

// Field offsets and lengths of the ustar header (POSIX.1-1988, as GNU tar documents them).
constexpr size_t kNameAt = 0, kNameLength = 100;
constexpr size_t kSizeAt = 124, kSizeLength = 12;
constexpr size_t kChecksumAt = 148, kChecksumLength = 8;
constexpr size_t kTypeAt = 156;
constexpr size_t kMagicAt = 257;
constexpr size_t kPrefixAt = 345, kPrefixLength = 155;
// POSIX's magic and version; GNU's "ustar  \0" puts other fields where POSIX has the prefix.
constexpr std::string_view kPosixMagic(
    "ustar\0"
    "00",
    8);

std::string_view Field(const unsigned char* block, size_t at, size_t length) {
  return {reinterpret_cast<const char*>(block) + at, length};
}

// A NUL-terminated field (a full one has no NUL).
std::string CString(const unsigned char* block, size_t at, size_t length) {
  const char* begin = reinterpret_cast<const char*>(block) + at;
  const void* nul = std::memchr(begin, '\0', length);
  return {begin, nul ? static_cast<const char*>(nul) : begin + length};
}

std::optional<uint64_t> ParseDecimal(std::string_view text) {
  if (text.empty() || text.size() > 19) return std::nullopt;  // 19 digits stay below 2^63
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

}  // namespace

std::optional<uint64_t> ParseTarNumber(std::string_view field) {
  if (field.empty()) return 0;
  const auto first = static_cast<unsigned char>(field[0]);
  if (first & 0x80) {
    // Base-256: bit 6 of the first byte is the sign, its low 6 bits the top of the number.
    if (first & 0x40) return std::nullopt;
    uint64_t value = first & 0x3f;
    for (size_t i = 1; i < field.size(); ++i) {
      if (value >> 55) return std::nullopt;  // the next shift would pass 2^63
      value = (value << 8) | static_cast<unsigned char>(field[i]);
    }
    return value;
  }
  size_t i = 0;
  while (i < field.size() && field[i] == ' ') ++i;
  uint64_t value = 0;
  for (; i < field.size(); ++i) {
    const char c = field[i];
    if (c == ' ' || c == '\0') break;
    if (c < '0' || c > '7') return std::nullopt;
    if (value >> 60) return std::nullopt;  // the next digit would pass 2^63
    value = value * 8 + static_cast<uint64_t>(c - '0');
  }
  for (; i < field.size(); ++i) {
    if (field[i] != ' ' && field[i] != '\0') return std::nullopt;
  }
  return value;
}

bool IsZeroBlock(const unsigned char* block) {
  static const unsigned char kZeros[kTarBlock] = {};
  return std::memcmp(block, kZeros, kTarBlock) == 0;
}

bool TarChecksumOk(const unsigned char* block) {
  const auto stored = ParseTarNumber(Field(block, kChecksumAt, kChecksumLength));
  if (!stored) return false;
  uint64_t unsigned_sum = 0;
  int64_t signed_sum = 0;
  for (size_t i = 0; i < kTarBlock; ++i) {
    const unsigned char byte =
        (i >= kChecksumAt && i < kChecksumAt + kChecksumLength) ? ' ' : block[i];
    unsigned_sum += byte;
    signed_sum += static_cast<signed char>(byte);
  }
  return *stored == unsigned_sum || static_cast<int64_t>(*stored) == signed_sum;
}

TarHeader ParseTarHeader(const unsigned char* block, std::string_view place) {
  if (!TarChecksumOk(block)) {
    throw RuntimeError(fmt::format(
        "tar header at {}: its checksum (field '{}') does not match its bytes (name field "
        "'{}'): the archive is corrupt, is not a tar, or was not fed in order from the "
        "offset the extractor was made with",
        place, Printable(CString(block, kChecksumAt, kChecksumLength)),
        Printable(CString(block, kNameAt, kNameLength))));
  }
  TarHeader header;
  header.name = CString(block, kNameAt, kNameLength);
  if (Field(block, kMagicAt, kPosixMagic.size()) == kPosixMagic) {
    const std::string prefix = CString(block, kPrefixAt, kPrefixLength);
    if (!prefix.empty()) header.name = prefix + "/" + header.name;
  }
  const auto size = ParseTarNumber(Field(block, kSizeAt, kSizeLength));
  if (!size) {
    throw RuntimeError(fmt::format(
        "tar header of '{}' at {}: the size field is neither octal nor GNU base-256 (or is "
        "negative): the archive is corrupt",
        Printable(header.name), place));
  }
  header.size = *size;
  header.type = static_cast<char>(block[kTypeAt]);
  return header;
}

void ParsePaxRecords(std::string_view data, std::string_view place, PaxRecords& records) {
  size_t at = 0;
  while (at < data.size() && data[at] != '\0') {  // some writers pad the data with NULs
    const auto malformed = [&](std::string_view why) {
      return RuntimeError(fmt::format(
          "pax extended header at {}: record at byte {} of its data {}: the archive is corrupt",
          place, at, why));
    };
    const size_t space = data.find(' ', at);
    if (space == std::string_view::npos) throw malformed("has no length");
    const auto length = ParseDecimal(data.substr(at, space - at));
    if (!length || *length <= space - at + 1 || *length > data.size() - at) {
      throw malformed("has a bad length");
    }
    const std::string_view record = data.substr(space + 1, at + *length - (space + 1));
    if (record.empty() || record.back() != '\n') throw malformed("does not end in a newline");
    const size_t equals = record.find('=');
    if (equals == std::string_view::npos) throw malformed("has no '='");
    const std::string_view keyword = record.substr(0, equals);
    const std::string_view value = record.substr(equals + 1, record.size() - equals - 2);
    if (keyword == "path") {
      records.path = value.empty() ? std::nullopt : std::optional<std::string>(value);
    } else if (keyword == "size") {
      if (value.empty()) {
        records.size.reset();
      } else {
        records.size = ParseDecimal(value);
        if (!records.size) throw malformed(fmt::format("has a bad size '{}'", Printable(value)));
      }
    } else if (keyword.starts_with("GNU.sparse.")) {
      records.sparse = true;
    }
    at += *length;
  }
}

}  // namespace trainbench::stage
