// What trainbench writes in each Parquet column, and the values: the column layout from
// dataset.parquet.columns (or DLIO's one "data" column of uint8), and the seeded values
// of every row, which datagen writes and --verify regenerates to compare.
//
// A column of `size` elements of `dtype` per row is one FIXED_LEN_BYTE_ARRAY value of
// size x itemsize bytes per row (a column of one float32, float64, int32 or int64 is that
// physical type itself, as pyarrow writes a scalar). DLIO's generator (pyarrow) writes a
// fixed-size list instead: a repeated field whose pages carry repetition and definition
// levels besides the values. The fixed-length form holds the same value bytes, so a row
// is exactly its record_length_bytes and its share of a page is exact; what a reader
// decodes is bytes, not a list of numbers (key_value_metadata "trainbench.columns" says
// how to view them: "name:dtype:size,...").
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
  uint64_t item_bytes = 1;   // bytes per element
  uint64_t value_bytes = 1;  // size x item_bytes: one row's value
  PhysicalType type = PhysicalType::kFixedLenByteArray;
  ValueKind kind = ValueKind::kRaw;
  bool read = true;
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

// The schema elements for the columns (root first), all REQUIRED.
std::vector<SchemaElement> SchemaFor(const std::vector<ColumnLayout>& columns);

// Fills `out` with the values of rows [first_row, first_row + rows) of column `index`.
void FillColumnValues(uint64_t file_seed, size_t index, const ColumnLayout& column,
                      uint64_t first_row, uint64_t rows, unsigned char* out);

}  // namespace trainbench::formats::parquet
