// Parquet's footer and page headers (parquet.thrift's FileMetaData, SchemaElement,
// LogicalType, RowGroup, ColumnChunk, ColumnMetaData, KeyValue, PageHeader,
// DataPageHeader, DictionaryPageHeader): the fields trainbench writes and the ones a scan
// of any writer's file needs, encoded with Thrift's compact protocol. Decoding skips
// every other field, so files of pyarrow or Spark decode too; it notes the fields of
// features a run refuses (encryption, column chunks in other files). Plain values;
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::formats::parquet {

// parquet.thrift's enums, with their wire values.
enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};
enum class Codec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,
  kZstd = 6,
  kLz4Raw = 7,
};
enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };
enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3
};
constexpr int32_t kPlainEncoding = 0;
constexpr int32_t kRleEncoding = 3;
constexpr int32_t kRleDictionaryEncoding = 8;
// ConvertedType's values trainbench writes.
constexpr int32_t kConvertedList = 3;
constexpr int32_t kConvertedUint8 = 11;
constexpr int32_t kConvertedUint16 = 12;
constexpr int32_t kConvertedUint32 = 13;
constexpr int32_t kConvertedUint64 = 14;
constexpr int32_t kConvertedInt8 = 15;
constexpr int32_t kConvertedInt16 = 16;

// The LogicalType union's member (its field id), the ones trainbench writes; 0: none.
enum class Logical : int16_t { kNone = 0, kList = 3, kInteger = 10, kFloat16 = 15 };
struct LogicalType {
  Logical kind = Logical::kNone;
  int8_t bit_width = 0;  // kInteger's IntType
  bool is_signed = true;
  bool operator==(const LogicalType&) const = default;
};

struct SchemaElement {
  std::optional<PhysicalType> type;  // absent for groups (the root)
  int32_t type_length = 0;           // FIXED_LEN_BYTE_ARRAY's bytes
  std::optional<Repetition> repetition;
  std::string name;
  int32_t num_children = 0;
  std::optional<int32_t> converted_type;
  LogicalType logical;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kFixedLenByteArray;
  std::vector<int32_t> encodings;
  std::vector<std::string> path_in_schema;
  Codec codec = Codec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;  // page headers included
  int64_t total_compressed_size = 0;    // page headers included
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
  // Where the chunk's pages start: its dictionary page, if any, comes first.
  int64_t StartOffset() const;
};

struct ColumnChunk {
  std::optional<std::string> file_path;  // the chunk lies in another file
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;  // absent only in files that keep it elsewhere
  bool encrypted = false;                   // has crypto_metadata or encrypted_column_metadata
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;  // uncompressed
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
};

struct KeyValue {
  std::string key;
  std::string value;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;  // depth-first; [0] is the root
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::string created_by;
  bool encrypted = false;  // has encryption_algorithm (a plaintext footer, encrypted columns)
  // The value of `key` in key_value_metadata, if there.
  std::optional<std::string> Value(const std::string& key) const;
};

struct DataPageHeader {
  int32_t num_values = 0;
  int32_t encoding = kPlainEncoding;
  int32_t definition_level_encoding = kRleEncoding;
  int32_t repetition_level_encoding = kRleEncoding;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  int32_t encoding = kPlainEncoding;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
};

std::string EncodeFileMetaData(const FileMetaData& metadata);
std::string EncodePageHeader(const PageHeader& header);
// Decoders throw thrift::DecodeError (what, and its offset in `data`) on malformed or
// truncated input and on a required field that is missing. DecodePageHeader sets
// *header_bytes to the bytes the header took.
FileMetaData DecodeFileMetaData(const unsigned char* data, size_t size);
PageHeader DecodePageHeader(const unsigned char* data, size_t size, size_t* header_bytes);

}  // namespace trainbench::formats::parquet
