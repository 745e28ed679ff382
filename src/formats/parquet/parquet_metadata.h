// Parquet's footer and page headers (parquet.thrift's FileMetaData, SchemaElement,
// RowGroup, ColumnChunk, ColumnMetaData, KeyValue, PageHeader, DataPageHeader): the
// fields trainbench writes and the ones a scan of any writer's file needs, encoded with
// Thrift's compact protocol. Decoding skips every other field, so files of pyarrow or
// Spark decode too. Plain values; thread-safe.
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

struct SchemaElement {
  std::optional<PhysicalType> type;  // absent for groups (the root)
  int32_t type_length = 0;           // FIXED_LEN_BYTE_ARRAY's bytes
  std::optional<Repetition> repetition;
  std::string name;
  int32_t num_children = 0;
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
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;  // absent only in files that keep it elsewhere
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
  // The value of `key` in key_value_metadata, if there.
  std::optional<std::string> Value(const std::string& key) const;
};

struct DataPageHeader {
  int32_t num_values = 0;
  int32_t encoding = kPlainEncoding;
  int32_t definition_level_encoding = kRleEncoding;
  int32_t repetition_level_encoding = kRleEncoding;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<DataPageHeader> data_page_header;
};

std::string EncodeFileMetaData(const FileMetaData& metadata);
std::string EncodePageHeader(const PageHeader& header);
// Decoders throw thrift::DecodeError (what, and its offset in `data`) on malformed or
// truncated input and on a required field that is missing. DecodePageHeader sets
// *header_bytes to the bytes the header took.
FileMetaData DecodeFileMetaData(const unsigned char* data, size_t size);
PageHeader DecodePageHeader(const unsigned char* data, size_t size, size_t* header_bytes);

}  // namespace trainbench::formats::parquet
