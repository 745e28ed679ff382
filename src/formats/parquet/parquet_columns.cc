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
  // How pyarrow stores an element: physical type, bytes of a PLAIN element, dictionary
  // (8-bit ints), annotations.
  PhysicalType physical;
  uint64_t stored_bytes;
  bool dictionary;
  std::optional<int32_t> converted;
  LogicalType logical;
};

constexpr LogicalType Int(int8_t bits, bool is_signed) {
  return {Logical::kInteger, bits, is_signed};
}
using P = PhysicalType;
const Dtype kDtypes[] = {
    {"uint8", 1, ValueKind::kRaw, P::kInt32, 1, true, kConvertedUint8, Int(8, false)},
    {"int8", 1, ValueKind::kRaw, P::kInt32, 1, true, kConvertedInt8, Int(8, true)},
    {"uint16", 2, ValueKind::kRaw, P::kInt32, 4, false, kConvertedUint16, Int(16, false)},
    {"int16", 2, ValueKind::kRaw, P::kInt32, 4, false, kConvertedInt16, Int(16, true)},
    {"uint32", 4, ValueKind::kRaw, P::kInt32, 4, false, kConvertedUint32, Int(32, false)},
    {"int32", 4, ValueKind::kRaw, P::kInt32, 4, false, std::nullopt, {}},
    {"uint64", 8, ValueKind::kRaw, P::kInt64, 8, false, kConvertedUint64, Int(64, false)},
    {"int64", 8, ValueKind::kRaw, P::kInt64, 8, false, std::nullopt, {}},
    {"float16",
     2,
     ValueKind::kFloat16,
     P::kFixedLenByteArray,
     2,
     false,
     std::nullopt,
     {Logical::kFloat16, 0, true}},
    {"float32", 4, ValueKind::kFloat32, P::kFloat, 4, false, std::nullopt, {}},
    {"float64", 8, ValueKind::kFloat64, P::kDouble, 8, false, std::nullopt, {}},
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
  c.type = dtype.physical;
  c.stored_item_bytes = dtype.stored_bytes;
  c.dictionary = dtype.dictionary;
  c.converted_type = dtype.converted;
  c.logical = dtype.logical;
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
    // A page holds at least a row, and its size is an i32 in the page header.
    if (c.size > (uint64_t{1} << 30) / dtype->stored_bytes)
      throw UsageError(fmt::format(
          "dataset.parquet.columns: column {} ('{}') has {} elements of {} bytes a row; a "
          "Parquet page holds at most 2 GiB: use a smaller size",
          i, c.name, c.size, dtype->stored_bytes));
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
    SchemaElement leaf;
    leaf.type = c.type;
    leaf.type_length = c.type == PhysicalType::kFixedLenByteArray ? 2 : 0;  // float16
    leaf.repetition = Repetition::kOptional;
    leaf.name = c.list() ? "element" : c.name;
    leaf.converted_type = c.converted_type;
    leaf.logical = c.logical;
    if (c.list()) {
      SchemaElement outer;
      outer.repetition = Repetition::kOptional;
      outer.name = c.name;
      outer.num_children = 1;
      outer.converted_type = kConvertedList;
      outer.logical.kind = Logical::kList;
      SchemaElement middle;
      middle.repetition = Repetition::kRepeated;
      middle.name = "list";
      middle.num_children = 1;
      schema.push_back(outer);
      schema.push_back(middle);
    }
    schema.push_back(leaf);
  }
  return schema;
}

std::vector<std::string> LeafPath(const ColumnLayout& column) {
  if (!column.list()) return {column.name};
  return {column.name, "list", "element"};
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
