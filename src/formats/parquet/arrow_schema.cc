#include "formats/parquet/arrow_schema.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace trainbench::formats::parquet {
namespace {
// Schema.fbs's Type union members and enums (Arrow's format/Schema.fbs, Message.fbs).
constexpr uint8_t kTypeInt = 2;
constexpr uint8_t kTypeFloatingPoint = 3;
constexpr uint8_t kTypeFixedSizeList = 16;
constexpr uint8_t kHeaderSchema = 1;
constexpr int16_t kMetadataV5 = 4;
constexpr int16_t kHalf = 0, kSingle = 1, kDouble = 2;

// A flatbuffer written front to back: every object a table refers to is written after it
// (flatbuffer offsets point forward) and its offset patched in then. Fields are laid out
// 4-byte first, so each scalar sits at its own alignment from a 4-aligned table start.
class FlatWriter {
 public:
  struct Slot {
    int id;
    int bytes;  // 1, 2 or 4 (an offset: 4, patched later)
    uint32_t value = 0;
  };

  struct Written {
    size_t start;               // where the table starts (its soffset)
    std::vector<size_t> slots;  // each slot's position, in the order given
  };
  // Writes a table, its vtable first.
  Written Table(std::vector<Slot> slots) {
    std::vector<size_t> order(slots.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return slots[a].bytes > slots[b].bytes; });
    std::vector<uint16_t> field_offset(slots.size());
    uint16_t at = 4;  // after the table's soffset to its vtable
    int max_id = -1;
    for (const size_t i : order) {
      field_offset[i] = at;
      at = static_cast<uint16_t>(at + slots[i].bytes);
      max_id = std::max(max_id, slots[i].id);
    }
    Align(2);
    const size_t vtable = out_.size();
    const auto entries = static_cast<size_t>(max_id + 1);
    std::vector<uint16_t> vt(2 + entries, 0);
    vt[0] = static_cast<uint16_t>(4 + 2 * entries);
    vt[1] = at;
    for (size_t i = 0; i < slots.size(); ++i)
      vt[2 + static_cast<size_t>(slots[i].id)] = field_offset[i];
    for (const uint16_t v : vt) Put(v, 2);
    Align(4);
    const size_t table = out_.size();
    Put(static_cast<uint32_t>(table - vtable), 4);
    Written written{table, std::vector<size_t>(slots.size())};
    for (const size_t i : order) {
      written.slots[i] = out_.size();
      Put(slots[i].value, slots[i].bytes);
    }
    return written;
  }
  // An offset's slot outside a table (the root's).
  size_t OffsetSlot() {
    Align(4);
    const size_t at = out_.size();
    out_.append(4, '\0');
    return at;
  }
  // A vector of `count` offsets; returns its first slot's position.
  size_t OffsetVector(size_t count) {
    Align(4);
    Put(static_cast<uint32_t>(count), 4);
    const size_t first = out_.size();
    out_.append(4 * count, '\0');
    return first;
  }
  size_t String(const std::string& s) {
    Align(4);
    const size_t at = out_.size();
    Put(static_cast<uint32_t>(s.size()), 4);
    out_ += s;
    out_.push_back('\0');
    return at;
  }
  // Points the offset at `slot` to `target` (a later position).
  void Patch(size_t slot, size_t target) {
    const auto delta = static_cast<uint32_t>(target - slot);
    std::memcpy(&out_[slot], &delta, 4);
  }
  void Align(size_t n) {
    while (out_.size() % n != 0) out_.push_back('\0');
  }
  std::string Take() { return std::move(out_); }

 private:
  void Put(uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<char>(value >> (8 * i)));
  }
  std::string out_;
};

// Writes a Field table of `column`'s element type (or, with `list`, its fixed-size list).
size_t WriteField(FlatWriter& w, const ColumnLayout& column, bool list, const std::string& name) {
  uint8_t type_type;
  if (list)
    type_type = kTypeFixedSizeList;
  else if (column.kind == ValueKind::kRaw)
    type_type = kTypeInt;
  else
    type_type = kTypeFloatingPoint;
  // name, nullable, type_type, type, children
  const auto field = w.Table({{0, 4}, {1, 1, 1}, {2, 1, type_type}, {3, 4}, {5, 4}});
  const auto& slots = field.slots;
  w.Patch(slots[0], w.String(name));
  FlatWriter::Written type;
  if (list) {
    type = w.Table({{0, 4, static_cast<uint32_t>(column.size)}});
  } else if (type_type == kTypeInt) {
    const bool is_signed = column.dtype[0] == 'i';
    type = w.Table(
        {{0, 4, static_cast<uint32_t>(8 * column.item_bytes)}, {1, 1, is_signed ? 1u : 0u}});
  } else {
    const int16_t precision = column.kind == ValueKind::kFloat16   ? kHalf
                              : column.kind == ValueKind::kFloat32 ? kSingle
                                                                   : kDouble;
    type = w.Table({{0, 2, static_cast<uint32_t>(precision)}});
  }
  w.Patch(slots[3], type.start);
  const size_t children = w.OffsetVector(list ? 1 : 0);
  w.Patch(slots[4], children - 4);  // a vector's offset points at its length
  if (list) w.Patch(children, WriteField(w, column, false, "item"));
  return field.start;
}

std::string Base64(const std::string& bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size())
      v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kDigits[(v >> 18) & 63]);
    out.push_back(kDigits[(v >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? kDigits[v & 63] : '=');
  }
  return out;
}
}  // namespace

std::string ArrowSchema(const std::vector<ColumnLayout>& columns) {
  FlatWriter w;
  // The root offset, then Message {version, header_type, header}.
  const size_t root = w.OffsetSlot();
  const auto message =
      w.Table({{0, 2, static_cast<uint32_t>(kMetadataV5)}, {1, 1, kHeaderSchema}, {2, 4}});
  w.Patch(root, message.start);
  const auto schema = w.Table({{1, 4}});  // Schema {fields}; endianness Little, the default
  w.Patch(message.slots[2], schema.start);
  const size_t fields = w.OffsetVector(columns.size());
  w.Patch(schema.slots[0], fields - 4);
  for (size_t i = 0; i < columns.size(); ++i)
    w.Patch(fields + 4 * i, WriteField(w, columns[i], columns[i].list(), columns[i].name));
  w.Align(8);
  const std::string flatbuffer = w.Take();
  // Arrow IPC's encapsulated message: continuation marker, length, the flatbuffer.
  std::string message_bytes("\xff\xff\xff\xff", 4);
  const auto length = static_cast<uint32_t>(flatbuffer.size());
  message_bytes.append(reinterpret_cast<const char*>(&length), 4);
  message_bytes += flatbuffer;
  return Base64(message_bytes);
}

}  // namespace trainbench::formats::parquet
