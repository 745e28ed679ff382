#include "formats/parquet/parquet_columns.h"

#include <fmt/format.h>

#include <cstring>

#include "common/error.h"
#include "common/random.h"
#include "common/strings.h"

namespace trainbench::formats::parquet {
namespace {
struct Dtype {
  std::string_view name;
  uint64_t bytes;
  ValueKind kind;
  // The physical type a single value of it is in pyarrow's files; FLBA where Parquet has
  // none of that width (1- and 2-byte ints, float16, unsigned).
  PhysicalType scalar;
};

constexpr Dtype kDtypes[] = {
    {"uint8", 1, ValueKind::kRaw, PhysicalType::kFixedLenByteArray},
    {"int8", 1, ValueKind::kRaw, PhysicalType::kFixedLenByteArray},
    {"uint16", 2, ValueKind::kRaw, PhysicalType::kFixedLenByteArray},
    {"int16", 2, ValueKind::kRaw, PhysicalType::kFixedLenByteArray},
    {"uint32", 4, ValueKind::kRaw, PhysicalType::kFixedLenByteArray},
    {"int32", 4, ValueKind::kRaw, PhysicalType::kInt32},
    {"uint64", 8, ValueKind::kRaw, PhysicalType::kFixedLenByteArray},
    {"int64", 8, ValueKind::kRaw, PhysicalType::kInt64},
    {"float16", 2, ValueKind::kFloat16, PhysicalType::kFixedLenByteArray},
    {"float32", 4, ValueKind::kFloat32, PhysicalType::kFloat},
    {"float64", 8, ValueKind::kFloat64, PhysicalType::kDouble},
};

const Dtype* FindDtype(const std::string& name) {
  for (const auto& d : kDtypes)
    if (d.name == name) return &d;
  return nullptr;
}

ColumnLayout Layout(const std::string& name, const Dtype& dtype, uint64_t size, bool read) {
  ColumnLayout c;
  c.name = name;
  c.dtype = std::string(dtype.name);
  c.size = size;
  c.item_bytes = dtype.bytes;
  c.value_bytes = size * dtype.bytes;
  c.type = size == 1 ? dtype.scalar : PhysicalType::kFixedLenByteArray;
  c.kind = dtype.kind;
  c.read = read;
  return c;
}

// Loops of fixed shape over plain arrays: the compiler vectorises them, so making floats
// costs little next to generating the bytes. Each random Int in place becomes a Float in
// [0, 1): its top `bits` bits (the Float's mantissa and one) over 2^bits, exactly.
template <typename Int, typename Float, int kBits>
void ToUnitFloat(unsigned char* p, size_t n) {
  static_assert(sizeof(Int) == sizeof(Float));
  constexpr Float kScale = Float{1} / static_cast<Float>(uint64_t{1} << kBits);
  for (size_t i = 0; i < n; ++i) {
    Int u;
    std::memcpy(&u, p + sizeof(Int) * i, sizeof(Int));
    const Float f = static_cast<Float>(u >> (8 * sizeof(Int) - kBits)) * kScale;
    std::memcpy(p + sizeof(Int) * i, &f, sizeof(Int));
  }
}

void ToFloat32(unsigned char* p, size_t n) { ToUnitFloat<uint32_t, float, 24>(p, n); }
void ToFloat64(unsigned char* p, size_t n) { ToUnitFloat<uint64_t, double, 53>(p, n); }

// k x 2^-10 for k < 1024 has at most 10 significant bits, so its binary16 form is exact:
// exponent and the top 10 bits of float32's mantissa.
void ToFloat16(unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t u;
    std::memcpy(&u, p + 2 * i, 2);
    const float f = static_cast<float>(u >> 6) * 0x1.0p-10f;
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    const auto exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
    const auto half = f == 0 ? uint16_t{0}
                             : static_cast<uint16_t>((static_cast<uint32_t>(exponent) << 10) |
                                                     ((bits >> 13) & 0x3ff));
    std::memcpy(p + 2 * i, &half, 2);
  }
}
}  // namespace

std::string KnownDtypes() {
  std::string out;
  for (const auto& d : kDtypes) out += fmt::format("{}{}", out.empty() ? "" : ", ", d.name);
  return out;
}

uint64_t DtypeBytes(const std::string& dtype) {
  const Dtype* d = FindDtype(dtype);
  return d ? d->bytes : 0;
}

std::vector<ColumnLayout> ColumnLayouts(const config::ParquetConfig& config,
                                        uint64_t sample_bytes) {
  std::vector<ColumnLayout> columns;
  if (config.columns.empty()) {
    columns.push_back(
        Layout("data", *FindDtype("uint8"), std::max<uint64_t>(sample_bytes, 1), true));
    return columns;
  }
  for (size_t i = 0; i < config.columns.size(); ++i) {
    const auto& c = config.columns[i];
    const Dtype* dtype = FindDtype(c.dtype);
    if (!dtype)
      throw UsageError(fmt::format(
          "dataset.parquet.columns: column {} ('{}') has dtype '{}', which trainbench does not "
          "write; use one of {}",
          i, c.name, c.dtype, KnownDtypes()));
    // A FIXED_LEN_BYTE_ARRAY's length is an i32 in the footer.
    if (c.size > (uint64_t{1} << 31) / dtype->bytes)
      throw UsageError(fmt::format(
          "dataset.parquet.columns: column {} ('{}') has {} elements of {} bytes a row; a "
          "Parquet value holds at most 2 GiB: use a smaller size",
          i, c.name, c.size, dtype->bytes));
    columns.push_back(Layout(c.name, *dtype, c.size, c.read));
  }
  return columns;
}

uint64_t RowBytes(const std::vector<ColumnLayout>& columns) {
  uint64_t bytes = 0;
  for (const auto& c : columns) bytes += c.value_bytes;
  return bytes;
}

std::string DescribeColumns(const std::vector<ColumnLayout>& columns) {
  std::string out;
  for (const auto& c : columns)
    out += fmt::format("{}{}:{}:{}", out.empty() ? "" : ",", c.name, c.dtype, c.size);
  return out;
}

std::vector<ColumnLayout> ParseColumns(const std::string& text) {
  std::vector<ColumnLayout> columns;
  for (const auto& item : Split(text, ',')) {
    const auto parts = Split(item, ':');
    if (parts.size() != 3) return {};
    const Dtype* dtype = FindDtype(parts[1]);
    uint64_t size = 0;
    for (const char ch : parts[2]) {
      if (ch < '0' || ch > '9' || size > (uint64_t{1} << 40)) return {};
      size = size * 10 + static_cast<uint64_t>(ch - '0');
    }
    if (!dtype || size == 0) return {};
    columns.push_back(Layout(parts[0], *dtype, size, true));
  }
  return columns;
}

std::vector<SchemaElement> SchemaFor(const std::vector<ColumnLayout>& columns) {
  std::vector<SchemaElement> schema(1);
  schema[0].name = "schema";
  schema[0].num_children = static_cast<int32_t>(columns.size());
  for (const auto& c : columns) {
    SchemaElement e;
    e.type = c.type;
    e.type_length = static_cast<int32_t>(c.value_bytes);
    e.repetition = Repetition::kRequired;
    e.name = c.name;
    schema.push_back(e);
  }
  return schema;
}

void FillColumnValues(uint64_t file_seed, size_t index, const ColumnLayout& column,
                      uint64_t first_row, uint64_t rows, unsigned char* out) {
  const size_t bytes = rows * column.value_bytes;
  FillRandom(Mix(file_seed, index), first_row * column.value_bytes, out, bytes);
  switch (column.kind) {
    case ValueKind::kRaw:
      return;
    case ValueKind::kFloat16:
      ToFloat16(out, bytes / 2);
      return;
    case ValueKind::kFloat32:
      ToFloat32(out, bytes / 4);
      return;
    case ValueKind::kFloat64:
      ToFloat64(out, bytes / 8);
      return;
  }
}

}  // namespace trainbench::formats::parquet
