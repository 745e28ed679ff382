#include "formats/tfrecord/protobuf_wire.h"

#include <string_view>

namespace trainbench::formats {
namespace {
constexpr unsigned char kLen1 = 0x0A;  // field 1, length-delimited
constexpr unsigned char kLen2 = 0x12;  // field 2, length-delimited
constexpr unsigned char kLen3 = 0x1A;  // field 3, length-delimited

// A length-delimited field: tag, length, then `inner_size` bytes that follow.
size_t FieldSize(size_t inner_size) { return 1 + VarintSize(inner_size) + inner_size; }

bool ReadField(const unsigned char* data, size_t size, size_t* pos, uint64_t* tag, size_t* start,
               size_t* len) {
  if (!GetVarint(data, size, pos, tag)) return false;
  if ((*tag & 7) != 2) return false;
  uint64_t n = 0;
  if (!GetVarint(data, size, pos, &n) || n > size - *pos) return false;
  *start = *pos;
  *len = static_cast<size_t>(n);
  *pos += *len;
  return true;
}
}  // namespace

void PutVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

size_t VarintSize(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

bool GetVarint(const unsigned char* data, size_t size, size_t* pos, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *pos < size; shift += 7) {
    const unsigned char b = data[(*pos)++];
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

std::string ExamplePrefix(uint64_t payload_size, uint64_t size_value) {
  // size entry: {key: "size", value: Feature{int64_list: Int64List{value: [n] packed}}}
  const size_t packed = VarintSize(size_value);
  const size_t int64_list = FieldSize(packed);
  const size_t size_feature = FieldSize(int64_list);
  const size_t size_entry = FieldSize(4) + FieldSize(size_feature);
  // image entry: {key: "image", value: Feature{bytes_list: BytesList{value: [payload]}}}
  const size_t bytes_list = FieldSize(payload_size);
  const size_t image_feature = FieldSize(bytes_list);
  const size_t image_entry = FieldSize(5) + FieldSize(image_feature);
  const size_t features = FieldSize(size_entry) + FieldSize(image_entry);

  std::string out;
  out.push_back(kLen1);  // Example.features
  PutVarint(out, features);
  out.push_back(kLen1);  // Features.feature map entry "size" (written first: small)
  PutVarint(out, size_entry);
  out.push_back(kLen1);
  PutVarint(out, 4);
  out += "size";
  out.push_back(kLen2);
  PutVarint(out, size_feature);
  out.push_back(kLen3);  // Feature.int64_list
  PutVarint(out, int64_list);
  out.push_back(kLen1);  // Int64List.value, packed
  PutVarint(out, packed);
  PutVarint(out, size_value);
  out.push_back(kLen1);  // map entry "image"
  PutVarint(out, image_entry);
  out.push_back(kLen1);
  PutVarint(out, 5);
  out += "image";
  out.push_back(kLen2);
  PutVarint(out, image_feature);
  out.push_back(kLen1);  // Feature.bytes_list
  PutVarint(out, bytes_list);
  out.push_back(kLen1);  // BytesList.value
  PutVarint(out, payload_size);
  return out;
}

bool ParseExample(const unsigned char* data, size_t size, ParsedExample* out) {
  size_t pos = 0, start = 0, len = 0;
  uint64_t tag = 0;
  if (!ReadField(data, size, &pos, &tag, &start, &len) || tag != kLen1 || pos != size) return false;
  const size_t features_end = start + len;
  pos = start;
  bool have_image = false, have_size = false;
  while (pos < features_end) {
    size_t entry_start = 0, entry_len = 0;
    if (!ReadField(data, features_end, &pos, &tag, &entry_start, &entry_len) || tag != kLen1)
      return false;
    size_t p = entry_start, key_start = 0, key_len = 0, value_start = 0, value_len = 0;
    const size_t entry_end = entry_start + entry_len;
    if (!ReadField(data, entry_end, &p, &tag, &key_start, &key_len) || tag != kLen1) return false;
    if (!ReadField(data, entry_end, &p, &tag, &value_start, &value_len) || tag != kLen2)
      return false;
    const std::string_view key(reinterpret_cast<const char*>(data + key_start), key_len);
    size_t q = value_start, list_start = 0, list_len = 0;
    const size_t value_end = value_start + value_len;
    if (!ReadField(data, value_end, &q, &tag, &list_start, &list_len)) return false;
    size_t r = list_start, item_start = 0, item_len = 0;
    const size_t list_end = list_start + list_len;
    if (!ReadField(data, list_end, &r, &tag, &item_start, &item_len) || tag != kLen1) return false;
    if (key == "image") {
      out->image_offset = item_start;
      out->image_length = item_len;
      have_image = true;
    } else if (key == "size") {
      size_t v = item_start;
      uint64_t value = 0;
      if (!GetVarint(data, item_start + item_len, &v, &value)) return false;
      out->size_feature = static_cast<int64_t>(value);
      have_size = true;
    }
  }
  return have_image && have_size;
}

}  // namespace trainbench::formats
