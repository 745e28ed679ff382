#include "formats/parquet/thrift_compact.h"

#include <fmt/format.h>

namespace trainbench::formats::thrift {
namespace {
uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
// Foreign footers nest a few levels (Statistics, LogicalType); a deeper one is damage, and
// the bound keeps a crafted file from exhausting the stack.
constexpr int kMaxDepth = 32;
}  // namespace

void CompactWriter::Varint(uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

void CompactWriter::FieldHeader(int16_t id, Type type) {
  const int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<char>((delta << 4) | static_cast<int>(type)));
  } else {
    out_.push_back(static_cast<char>(type));
    Varint(ZigZag(id));
  }
  last_id_ = id;
}

void CompactWriter::I32(int16_t id, int32_t value) {
  FieldHeader(id, Type::kI32);
  Varint(ZigZag(value));
}

void CompactWriter::I64(int16_t id, int64_t value) {
  FieldHeader(id, Type::kI64);
  Varint(ZigZag(value));
}

void CompactWriter::Bool(int16_t id, bool value) {
  FieldHeader(id, value ? Type::kTrue : Type::kFalse);
}

void CompactWriter::Byte(int16_t id, int8_t value) {
  FieldHeader(id, Type::kByte);
  out_.push_back(static_cast<char>(value));
}

void CompactWriter::Binary(int16_t id, const std::string& value) {
  FieldHeader(id, Type::kBinary);
  ElementBinary(value);
}

void CompactWriter::ListHeader(int16_t id, Type element, size_t size) {
  FieldHeader(id, Type::kList);
  if (size < 15) {
    out_.push_back(static_cast<char>((size << 4) | static_cast<size_t>(element)));
  } else {
    out_.push_back(static_cast<char>(0xf0 | static_cast<int>(element)));
    Varint(size);
  }
}

void CompactWriter::ElementI32(int32_t value) { Varint(ZigZag(value)); }

void CompactWriter::ElementBinary(const std::string& value) {
  Varint(value.size());
  out_ += value;
}

void CompactWriter::BeginStruct(int16_t id) {
  FieldHeader(id, Type::kStruct);
  BeginStruct();
}

void CompactWriter::BeginStruct() {
  saved_ids_.push_back(last_id_);
  last_id_ = 0;
}

void CompactWriter::EndStruct() {
  out_.push_back(static_cast<char>(Type::kStop));
  last_id_ = saved_ids_.back();
  saved_ids_.pop_back();
}

std::string CompactWriter::Finish() {
  out_.push_back(static_cast<char>(Type::kStop));
  return std::move(out_);
}

uint8_t CompactReader::Byte() {
  if (pos_ >= size_) throw DecodeError("runs past the end of its bytes", pos_);
  return data_[pos_++];
}

uint64_t CompactReader::Varint() {
  const size_t start = pos_;
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const uint8_t b = Byte();
    value |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return value;
  }
  throw DecodeError("varint longer than 10 bytes", start);
}

bool CompactReader::NextField(int16_t* id, Type* type) {
  const size_t start = pos_;
  const uint8_t header = Byte();
  if (header == 0) return false;
  const int t = header & 0x0f;
  if (t > static_cast<int>(Type::kStruct))
    throw DecodeError(fmt::format("unknown field type {}", t), start);
  *type = static_cast<Type>(t);
  const int delta = header >> 4;
  if (delta != 0) {
    *id = static_cast<int16_t>(last_id_ + delta);
  } else {
    const int64_t v = UnZigZag(Varint());
    if (v < INT16_MIN || v > INT16_MAX)
      throw DecodeError(fmt::format("field id {} out of range", v), start);
    *id = static_cast<int16_t>(v);
  }
  last_id_ = *id;
  return true;
}

int8_t CompactReader::I8() { return static_cast<int8_t>(Byte()); }

int32_t CompactReader::I32() {
  const size_t start = pos_;
  const int64_t v = UnZigZag(Varint());
  if (v < INT32_MIN || v > INT32_MAX)
    throw DecodeError(fmt::format("i32 value {} out of range", v), start);
  return static_cast<int32_t>(v);
}

int64_t CompactReader::I64() { return UnZigZag(Varint()); }

std::string CompactReader::Binary() {
  const size_t start = pos_;
  const uint64_t length = Varint();
  if (length > size_ - pos_)
    throw DecodeError(fmt::format("binary of {} bytes runs past the end", length), start);
  std::string value(reinterpret_cast<const char*>(data_ + pos_), length);
  pos_ += length;
  return value;
}

void CompactReader::ListHeader(Type* element, size_t* size) {
  const size_t start = pos_;
  const uint8_t header = Byte();
  *element = static_cast<Type>(header & 0x0f);
  uint64_t n = header >> 4;
  if (n == 15) n = Varint();
  // Every element takes at least a byte: a larger count is damage, not a huge list.
  if (n > size_ - pos_)
    throw DecodeError(fmt::format("list of {} elements runs past the end", n), start);
  *size = n;
}

void CompactReader::BeginStruct() {
  if (saved_ids_.size() >= kMaxDepth) throw DecodeError("structs nested too deep", pos_);
  saved_ids_.push_back(last_id_);
  last_id_ = 0;
}

void CompactReader::EndStruct() {
  last_id_ = saved_ids_.back();
  saved_ids_.pop_back();
}

void CompactReader::Skip(Type type) { SkipDepth(type, 0); }

void CompactReader::SkipDepth(Type type, int depth) {
  if (depth > kMaxDepth) throw DecodeError("values nested too deep", pos_);
  switch (type) {
    case Type::kTrue:
    case Type::kFalse:
      return;  // a bool field's value is its type
    case Type::kByte:
      Byte();
      return;
    case Type::kI16:
    case Type::kI32:
    case Type::kI64:
      Varint();
      return;
    case Type::kDouble:
      if (size_ - pos_ < 8) throw DecodeError("double runs past the end", pos_);
      pos_ += 8;
      return;
    case Type::kBinary:
      Binary();
      return;
    case Type::kList:
    case Type::kSet: {
      Type element;
      size_t n = 0;
      ListHeader(&element, &n);
      // A bool element is one byte, not a type nibble.
      for (size_t i = 0; i < n; ++i)
        SkipDepth(element == Type::kTrue || element == Type::kFalse ? Type::kByte : element,
                  depth + 1);
      return;
    }
    case Type::kMap: {
      const size_t start = pos_;
      const uint64_t n = Varint();
      if (n == 0) return;
      if (n > size_ - pos_)
        throw DecodeError(fmt::format("map of {} entries runs past the end", n), start);
      const uint8_t types = Byte();
      const auto element = [](int t) {
        const auto element_type = static_cast<Type>(t);
        return element_type == Type::kTrue || element_type == Type::kFalse ? Type::kByte
                                                                           : element_type;
      };
      for (uint64_t i = 0; i < n; ++i) {
        SkipDepth(element(types >> 4), depth + 1);
        SkipDepth(element(types & 0x0f), depth + 1);
      }
      return;
    }
    case Type::kStruct: {
      BeginStruct();
      int16_t id;
      Type t;
      while (NextField(&id, &t)) SkipDepth(t, depth + 1);
      EndStruct();
      return;
    }
    case Type::kStop:
      break;
  }
  throw DecodeError(fmt::format("cannot skip a value of type {}", static_cast<int>(type)), pos_);
}

}  // namespace trainbench::formats::thrift
