// Thrift's compact protocol, the encoding of Parquet's footer and page headers: field
// headers with id deltas, zigzag varints, length-prefixed binaries, lists and nested
// structs. Only what Parquet's structs use (no maps, sets or doubles are written; any
// type is skipped when read). The Parquet structs themselves are in parquet_metadata.h.
// Writer and reader are plain values: one per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace trainbench::formats::thrift {

// Compact protocol type ids (the low nibble of a field header).
enum class Type : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

class CompactWriter {
 public:
  // Fields of the struct being written, in increasing id order.
  void I32(int16_t id, int32_t value);
  void I64(int16_t id, int64_t value);
  void Bool(int16_t id, bool value);
  void Byte(int16_t id, int8_t value);
  void Binary(int16_t id, const std::string& value);
  // A list field: its header; then the caller writes `size` elements with the Element*
  // calls (or BeginStruct/EndStruct for each element of a struct list).
  void ListHeader(int16_t id, Type element, size_t size);
  void ElementI32(int32_t value);
  void ElementBinary(const std::string& value);
  // A nested struct: a field (BeginStruct(id)) or a list element (BeginStruct()).
  void BeginStruct(int16_t id);
  void BeginStruct();
  void EndStruct();  // writes the stop byte
  // The top-level struct's stop byte and the bytes written.
  std::string Finish();

 private:
  void FieldHeader(int16_t id, Type type);
  void Varint(uint64_t value);
  std::string out_;
  int16_t last_id_ = 0;
  std::vector<int16_t> saved_ids_;
};

// A malformed encoding: what, and where in the decoded bytes.
class DecodeError : public std::runtime_error {
 public:
  DecodeError(const std::string& what, size_t offset) : std::runtime_error(what), offset_(offset) {}
  size_t offset() const { return offset_; }

 private:
  size_t offset_;
};

class CompactReader {
 public:
  CompactReader(const unsigned char* data, size_t size) : data_(data), size_(size) {}

  // The next field of the current struct; false at its stop byte. A bool field's value
  // is in its type (kTrue, kFalse).
  bool NextField(int16_t* id, Type* type);
  int8_t I8();
  int32_t I32();
  int64_t I64();
  std::string Binary();
  // A list's element type and size (the caller reads that many elements).
  void ListHeader(Type* element, size_t* size);
  void BeginStruct();
  void EndStruct();  // after NextField returned false
  // Skips a value of `type` (a field the caller does not know).
  void Skip(Type type);
  size_t Offset() const { return pos_; }

 private:
  uint8_t Byte();
  uint64_t Varint();
  void SkipDepth(Type type, int depth);
  const unsigned char* data_;
  size_t size_;
  size_t pos_ = 0;
  int16_t last_id_ = 0;
  std::vector<int16_t> saved_ids_;
};

}  // namespace trainbench::formats::thrift
