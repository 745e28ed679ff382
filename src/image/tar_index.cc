#include "image/tar_index.h"

#include <fmt/format.h>

#include <array>
#include <cstring>

#include "common/error.h"

namespace trainbench::image {

namespace {

constexpr uint64_t kBlock = 512;
constexpr int kMaxDepth = 4;  // tars in tars in tars: far more than ImageNet's two levels

uint64_t RoundUp(uint64_t n) { return (n + kBlock - 1) / kBlock * kBlock; }

std::string Field(const char* data, size_t size) { return std::string(data, strnlen(data, size)); }

// Octal, space- or NUL-terminated; GNU marks base-256 numbers with the top bit.
bool ParseNumber(const unsigned char* data, size_t size, uint64_t& value) {
  value = 0;
  if (data[0] & 0x80) {
    for (size_t i = 1; i < size; ++i) value = (value << 8) | data[i];
    return true;
  }
  size_t i = 0;
  while (i < size && data[i] == ' ') ++i;
  bool any = false;
  for (; i < size && data[i] >= '0' && data[i] <= '7'; ++i, any = true)
    value = value * 8 + static_cast<uint64_t>(data[i] - '0');
  return any || i == size || data[i] == 0;
}

bool ChecksumMatches(const std::array<unsigned char, kBlock>& header) {
  uint64_t stored = 0;
  if (!ParseNumber(&header[148], 8, stored)) return false;
  uint64_t sum = 0;
  for (size_t i = 0; i < kBlock; ++i) sum += (i >= 148 && i < 156) ? ' ' : header[i];
  return sum == stored;
}

// pax records: "<length> <key>=<value>\n".
void ParsePax(const std::string& text, std::string& path, uint64_t& size, bool& has_size) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t space = text.find(' ', pos);
    if (space == std::string::npos) return;
    const uint64_t length = std::strtoull(text.c_str() + pos, nullptr, 10);
    if (length == 0 || pos + length > text.size()) return;
    const std::string record = text.substr(space + 1, pos + length - space - 2);
    const size_t eq = record.find('=');
    if (eq != std::string::npos) {
      const std::string key = record.substr(0, eq), value = record.substr(eq + 1);
      if (key == "path") path = value;
      if (key == "size") {
        size = std::strtoull(value.c_str(), nullptr, 10);
        has_size = true;
      }
    }
    pos += length;
  }
}

bool EndsWithTar(const std::string& name) {
  return name.size() > 4 && (name.compare(name.size() - 4, 4, ".tar") == 0 ||
                             name.compare(name.size() - 4, 4, ".TAR") == 0);
}

std::string ReadText(storage::RandomAccessFile& file, uint64_t offset, uint64_t size,
                     const std::string& describe) {
  std::string text(size, '\0');
  if (file.ReadAt(offset, text.data(), size) != size)
    throw RuntimeError(fmt::format("{}: tar truncated at byte {}", describe, offset));
  return text;
}

void List(storage::RandomAccessFile& file, uint64_t begin, uint64_t end,
          const std::string& describe, const std::string& enclosing, int depth,
          std::vector<TarMember>& out) {
  std::array<unsigned char, kBlock> header{};
  std::string long_name, pax_path;
  uint64_t pax_size = 0;
  bool has_pax_size = false;
  for (uint64_t pos = begin; pos + kBlock <= end;) {
    if (file.ReadAt(pos, header.data(), kBlock) != kBlock)
      throw RuntimeError(fmt::format("{}: tar truncated at byte {}", describe, pos));
    bool zero = true;
    for (unsigned char c : header) zero = zero && c == 0;
    if (zero) return;  // end-of-archive marker
    if (!ChecksumMatches(header))
      throw RuntimeError(fmt::format(
          "{}: not a tar archive or corrupt (bad header checksum at byte {})", describe, pos));
    uint64_t size = 0;
    ParseNumber(&header[124], 12, size);
    const char type = static_cast<char>(header[156]);
    const uint64_t data = pos + kBlock;
    if (has_pax_size) size = pax_size;
    if (data + size > end)
      throw RuntimeError(fmt::format("{}: tar member at byte {} runs past the end", describe, pos));
    pos = data + RoundUp(size);
    if (type == 'L') {  // GNU: the next header's long name
      long_name = ReadText(file, data, size, describe).c_str();
      continue;
    }
    if (type == 'x') {  // pax: attributes of the next header
      ParsePax(ReadText(file, data, size, describe), pax_path, pax_size, has_pax_size);
      continue;
    }
    std::string name = Field(reinterpret_cast<const char*>(&header[0]), 100);
    if (std::memcmp(&header[257], "ustar", 5) == 0 && header[345] != 0)
      name = Field(reinterpret_cast<const char*>(&header[345]), 155) + "/" + name;
    if (!long_name.empty()) name = long_name;
    if (!pax_path.empty()) name = pax_path;
    long_name.clear();
    pax_path.clear();
    has_pax_size = false;
    if (type != '0' && type != '\0' && type != '7') continue;  // folders, links, globals
    if (EndsWithTar(name) && depth < kMaxDepth) {
      List(file, data, data + size, describe + ":" + name, name, depth + 1, out);
      continue;
    }
    out.push_back({name, enclosing, data, size});
  }
}

}  // namespace

std::vector<TarMember> ListTar(storage::RandomAccessFile& file, uint64_t begin, uint64_t end,
                               const std::string& describe) {
  std::vector<TarMember> members;
  List(file, begin, end, describe, "", 0, members);
  return members;
}

}  // namespace trainbench::image
