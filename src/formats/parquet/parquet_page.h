// The bodies of the pages trainbench writes for a column (parquet_columns.h says the
// layout): a data page v1 of whole rows, its repetition and definition levels (each a
// 4-byte length and the RLE/bit-packed hybrid of parquet's Encodings.md) then its values,
// PLAIN or, for a dictionary column, the bit width and one bit-packed run of 8-bit
// indices; and a dictionary column's dictionary page. Uncompressed bodies: the writer
// compresses them, --verify regenerates them to compare. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "formats/parquet/parquet_columns.h"

namespace trainbench::formats::parquet {

// The entries of a dictionary column's dictionary: every 8-bit value.
constexpr int32_t kDictionaryValues = 256;

// Rows in each data page of the column: about 1 MiB of values (Arrow's default data page
// size), at least one row.
uint64_t PageRows(const ColumnLayout& column);

// The body of a data page holding `rows` rows whose generated values (item_bytes an
// element, FillColumnValues') are `values`, into `out`; returns where in `out` the
// values' encoding starts (after the levels).
size_t EncodeDataPage(const ColumnLayout& column, const unsigned char* values, uint64_t rows,
                      std::vector<unsigned char>& out);

// The body of a dictionary column's dictionary page: kDictionaryValues PLAIN INT32s, entry
// b the value whose byte is b (uint8: b; int8: b as a signed byte).
void EncodeDictionary(const ColumnLayout& column, std::vector<unsigned char>& out);

}  // namespace trainbench::formats::parquet
