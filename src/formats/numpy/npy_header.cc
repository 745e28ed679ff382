#include "formats/numpy/npy_header.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <string_view>

#include "common/error.h"

namespace trainbench::formats {
namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;
constexpr size_t kAlign = 64;

// The value text after `'key':` in the dict literal, or empty if the key is absent.
std::string_view ValueOf(std::string_view dict, std::string_view key) {
  const std::string quoted = fmt::format("'{}'", key);
  size_t at = dict.find(quoted);
  if (at == std::string_view::npos) return {};
  at = dict.find(':', at + quoted.size());
  if (at == std::string_view::npos) return {};
  std::string_view rest = dict.substr(at + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return rest;
}

std::string ParseShape(std::string_view text, std::vector<uint64_t>* shape) {
  if (text.empty() || text.front() != '(') return "shape is not a tuple";
  const size_t close = text.find(')');
  if (close == std::string_view::npos) return "shape tuple is not closed";
  std::string_view inner = text.substr(1, close - 1);
  shape->clear();
  while (!inner.empty()) {
    while (!inner.empty() && (inner.front() == ' ' || inner.front() == ',')) inner.remove_prefix(1);
    if (inner.empty()) break;
    uint64_t dim = 0;
    const auto [end, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), dim);
    if (ec != std::errc()) return fmt::format("bad shape dimension in '{}'", text.substr(0, close));
    shape->push_back(dim);
    inner.remove_prefix(static_cast<size_t>(end - inner.data()));
    if (!inner.empty() && inner.front() == 'L') inner.remove_prefix(1);  // Python 2 longs
  }
  return {};
}
}  // namespace

uint64_t NpyHeader::Elements() const {
  uint64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

std::string EncodeNpyHeader(const std::string& descr, const std::vector<uint64_t>& shape) {
  std::string tuple = "(";
  for (size_t i = 0; i < shape.size(); ++i) tuple += fmt::format("{}{}", i ? ", " : "", shape[i]);
  if (shape.size() == 1) tuple += ",";
  tuple += ")";
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, tuple);
  // numpy pads with spaces and ends with '\n' so that magic + version + length + dict
  // is a multiple of 64 bytes: the array data is then aligned for memory mapping.
  const size_t prefix = kMagicBytes + 2 + 2;
  const size_t unpadded = prefix + dict.size() + 1;
  dict.append((kAlign - unpadded % kAlign) % kAlign, ' ');
  dict += '\n';
  if (dict.size() > 0xffff) throw RuntimeError("npy header too long for format version 1.0");
  std::string out(kMagic, kMagicBytes);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

std::string ParseNpyHeader(const unsigned char* data, size_t size, NpyHeader* header,
                           size_t* needed) {
  *needed = 0;
  if (size < kMagicBytes + 4) return "shorter than an npy header";
  if (std::memcmp(data, kMagic, kMagicBytes) != 0) return "no npy magic string";
  const unsigned major = data[kMagicBytes];
  size_t prefix = 0, dict_bytes = 0;
  if (major == 1) {
    prefix = kMagicBytes + 4;
    dict_bytes = data[8] | (static_cast<size_t>(data[9]) << 8);
  } else if (major == 2 || major == 3) {
    if (size < kMagicBytes + 6) return "shorter than an npy header";
    prefix = kMagicBytes + 6;
    uint32_t length;
    std::memcpy(&length, data + 8, 4);
    dict_bytes = length;
  } else {
    return fmt::format("unsupported npy format version {}", major);
  }
  *needed = prefix + dict_bytes;
  if (size < *needed) return "npy header is truncated";
  const std::string_view dict(reinterpret_cast<const char*>(data + prefix), dict_bytes);
  const std::string_view descr = ValueOf(dict, "descr");
  if (descr.size() < 2 || descr.front() != '\'') return "npy header has no descr";
  const size_t quote = descr.find('\'', 1);
  if (quote == std::string_view::npos) return "npy descr is not a string";
  header->descr = std::string(descr.substr(1, quote - 1));
  const std::string_view order = ValueOf(dict, "fortran_order");
  if (order.starts_with("True")) {
    header->fortran_order = true;
  } else if (order.starts_with("False")) {
    header->fortran_order = false;
  } else {
    return "npy header has no fortran_order";
  }
  if (auto error = ParseShape(ValueOf(dict, "shape"), &header->shape); !error.empty()) return error;
  header->header_bytes = *needed;
  return {};
}

NpyHeader ReadNpyHeader(storage::RandomAccessFile& file, uint64_t offset, const std::string& name) {
  std::vector<unsigned char> buffer(4096);
  NpyHeader header;
  for (;;) {
    const size_t got = file.ReadAt(offset, buffer.data(), buffer.size());
    size_t needed = 0;
    const std::string error = ParseNpyHeader(buffer.data(), got, &header, &needed);
    if (error.empty()) return header;
    if (needed <= got || got < buffer.size())
      throw RuntimeError(fmt::format("{}: bad npy header at offset {}: {}", name, offset, error));
    buffer.resize(needed);
  }
}

uint64_t NpyItemBytes(const std::string& descr) {
  if (descr.size() < 3) return 0;
  uint64_t bytes = 0;
  const auto [end, ec] = std::from_chars(descr.data() + 2, descr.data() + descr.size(), bytes);
  if (ec != std::errc() || end != descr.data() + descr.size()) return 0;
  const char kind = descr[1];
  return kind == 'u' || kind == 'i' || kind == 'f' || kind == 'b' ? bytes : 0;
}

}  // namespace trainbench::formats
