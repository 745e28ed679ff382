#include "formats/parquet/parquet_page.h"

#include <algorithm>
#include <cstring>

namespace trainbench::formats::parquet {
namespace {
// Arrow's default data page size.
constexpr uint64_t kPageBytes = 1 << 20;
// Up to this many elements a row, a list's repetition levels are bit-packed (one bit an
// element); longer rows take two RLE runs each (a few bytes a row, not size / 8).
constexpr uint64_t kMaxBitPackedRow = 64;

void Varint(std::vector<unsigned char>& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<unsigned char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<unsigned char>(value));
}

void U32(std::vector<unsigned char>& out, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<unsigned char>(value >> (8 * i));
}

// An RLE run: `count` times `value` (levels of at most 8 bits: one byte).
void RleRun(std::vector<unsigned char>& out, uint64_t count, unsigned char value) {
  Varint(out, count << 1);
  out.push_back(value);
}

// Levels: a 4-byte length, then the runs `encode` appends.
template <typename Encode>
void Levels(std::vector<unsigned char>& out, Encode encode) {
  const size_t at = out.size();
  out.resize(at + 4);
  encode();
  U32(out, at, static_cast<uint32_t>(out.size() - at - 4));
}

void RepetitionLevels(std::vector<unsigned char>& out, uint64_t size, uint64_t rows) {
  if (size > kMaxBitPackedRow) {
    for (uint64_t r = 0; r < rows; ++r) {
      RleRun(out, 1, 0);
      RleRun(out, size - 1, 1);
    }
    return;
  }
  // One bit-packed run of 1-bit levels, 8 a byte, least significant bit first; the last
  // group padded with zeros (readers stop at the page's num_values).
  const uint64_t n = rows * size;
  const uint64_t groups = (n + 7) / 8;
  Varint(out, (groups << 1) | 1);
  const size_t at = out.size();
  out.resize(at + groups, 0);
  for (uint64_t j = 0; j < n; ++j)
    if (j % size != 0) out[at + j / 8] |= static_cast<unsigned char>(1u << (j % 8));
}
}  // namespace

uint64_t PageRows(const ColumnLayout& column) {
  return std::max<uint64_t>(1, kPageBytes / (column.size * column.stored_item_bytes));
}

size_t EncodeDataPage(const ColumnLayout& column, const unsigned char* values, uint64_t rows,
                      std::vector<unsigned char>& out) {
  const uint64_t n = rows * column.size;
  out.clear();
  if (column.list()) Levels(out, [&] { RepetitionLevels(out, column.size, rows); });
  Levels(out, [&] { RleRun(out, n, static_cast<unsigned char>(column.MaxDefinition())); });
  const size_t start = out.size();
  if (column.dictionary) {
    // Bit width 8, one bit-packed run: the indices are the values' bytes.
    out.push_back(8);
    const uint64_t groups = (n + 7) / 8;
    Varint(out, (groups << 1) | 1);
    const size_t at = out.size();
    out.resize(at + groups * 8, 0);
    std::memcpy(out.data() + at, values, n);
  } else if (column.stored_item_bytes == column.item_bytes) {
    out.insert(out.end(), values, values + n * column.item_bytes);
  } else {  // 16-bit ints as INT32: sign- or zero-extended
    const bool is_signed = column.logical.is_signed;
    out.resize(start + n * 4);
    for (uint64_t i = 0; i < n; ++i) {
      uint16_t u;
      std::memcpy(&u, values + 2 * i, 2);
      const uint32_t wide =
          is_signed ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(u))) : u;
      U32(out, start + 4 * i, wide);
    }
  }
  return start;
}

void EncodeDictionary(const ColumnLayout& column, std::vector<unsigned char>& out) {
  out.assign(4 * kDictionaryValues, 0);
  for (int b = 0; b < kDictionaryValues; ++b) {
    const int32_t value = column.logical.is_signed ? static_cast<int8_t>(b) : b;
    U32(out, 4 * b, static_cast<uint32_t>(value));
  }
}

}  // namespace trainbench::formats::parquet
