// What trainbench writes in each Parquet column, and the values: the column layout from
// dataset.parquet.columns (or DLIO's one "data" column of uint8), and the seeded values
// of every row, which datagen writes and --verify regenerates to compare.
//
// The layout is DLIO's, that is pyarrow's for its columns: every column OPTIONAL (pyarrow's
// fields are nullable), a column of `size` > 1 a fixed-size list (pa.list_(type, size)),
// in Parquet a LIST group whose one leaf, "element", holds size values a row:
//   optional group <name> (LIST) { repeated group list { optional <type> element; } }
// Each data page carries the leaf's repetition levels (0 starting a row, 1 within it) and
// definition levels (3: every element present; a scalar's 1) before the values, RLE/
// bit-packed as parquet's Encodings.md says. The element's physical type is pyarrow's:
// int32, int64, float, double as themselves; uint32 and uint64 in INT32/INT64 with an
// unsigned INTEGER annotation; int16/uint16 widened to INT32 (4 bytes each, pyarrow's
// PLAIN form); float16 FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16; int8/uint8 dictionary-
// encoded as pyarrow writes them by default, a 256-entry dictionary page (the identity:
// index b is the value whose byte is b) and RLE_DICTIONARY pages whose 8-bit indices are
// the values' own bytes, so a uint8 "data" column stores one byte an element as DLIO's
// does. The encoder is parquet_page.h.
//
// Values: column c's bytes for rows [r0, r1) are FillRandom(Mix(file seed, c), r0 x
// value_bytes, ...) (common/random.h), and then, so that every float is a finite number in
// [0, 1) as DLIO's generator draws them, each float32 element becomes (u32 >> 8) x 2^-24,
// float64 (u64 >> 11) x 2^-53 and float16 (u16 >> 6) x 2^-10, little-endian. Integer
// columns keep the random bytes (DLIO uses their full range). The file's seed is in
// key_value_metadata "trainbench.seed", so any reader can regenerate every value.
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/workload.h"
#include "formats/parquet/parquet_metadata.h"

namespace trainbench::formats::parquet {

enum class ValueKind { kRaw, kFloat16, kFloat32, kFloat64 };

struct ColumnLayout {
  std::string name;
  std::string dtype;         // numpy's name
  uint64_t size = 1;         // elements per row
  uint64_t item_bytes = 1;   // bytes per element, as generated
  uint64_t value_bytes = 1;  // size x item_bytes: one row's generated value
  PhysicalType type = PhysicalType::kFixedLenByteArray;  // the leaf's
  uint64_t stored_item_bytes = 1;         // bytes of one PLAIN element (a dictionary index: 1)
  bool dictionary = false;                // int8/uint8: dictionary-encoded
  std::optional<int32_t> converted_type;  // the leaf's ConvertedType
  LogicalType logical;                    // the leaf's LogicalType
  ValueKind kind = ValueKind::kRaw;
  bool read = true;
  bool list() const { return size > 1; }
  // The levels a page holds for each element: repetition (list) and definition.
  int MaxRepetition() const { return list() ? 1 : 0; }
  int MaxDefinition() const { return list() ? 3 : 1; }
};

// The dtypes a column may have, for error messages: "uint8, int8, ...".
std::string KnownDtypes();
// The bytes of one `dtype` element, 0 for a dtype Parquet columns here cannot hold.
uint64_t DtypeBytes(const std::string& dtype);

// The configured columns; without any, one uint8 column "data" of `sample_bytes`.
// Throws UsageError naming dataset.parquet.columns and the column for a bad dtype.
std::vector<ColumnLayout> ColumnLayouts(const config::ParquetConfig& config, uint64_t sample_bytes);
// Bytes of one row: the sum of the columns' value bytes.
uint64_t RowBytes(const std::vector<ColumnLayout>& columns);

// "label:float32:1,numerical_features:float32:13": key_value_metadata's description.
std::string DescribeColumns(const std::vector<ColumnLayout>& columns);
// Parses DescribeColumns' text back (a file's own description, for Verify and Scan);
// empty if it is not one.
std::vector<ColumnLayout> ParseColumns(const std::string& text);

// The schema elements for the columns (root first): pyarrow's for DLIO's table.
std::vector<SchemaElement> SchemaFor(const std::vector<ColumnLayout>& columns);

// The leaf column's path (ColumnMetaData.path_in_schema): name, or name.list.element.
std::vector<std::string> LeafPath(const ColumnLayout& column);

// Fills `out` with the generated values (item_bytes an element) of rows [first_row, first_row +
// rows) of column `index`.
void FillColumnValues(uint64_t file_seed, size_t index, const ColumnLayout& column,
                      uint64_t first_row, uint64_t rows, unsigned char* out);

}  // namespace trainbench::formats::parquet
