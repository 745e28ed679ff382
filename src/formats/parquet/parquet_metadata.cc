#include "formats/parquet/parquet_metadata.h"

#include <fmt/format.h>

#include "formats/parquet/thrift_compact.h"

namespace trainbench::formats::parquet {
namespace {
using thrift::CompactReader;
using thrift::CompactWriter;
using thrift::DecodeError;
using thrift::Type;

void WriteSchemaElement(CompactWriter& w, const SchemaElement& e) {
  w.BeginStruct();
  if (e.type) w.I32(1, static_cast<int32_t>(*e.type));
  if (e.type == PhysicalType::kFixedLenByteArray) w.I32(2, e.type_length);
  if (e.repetition) w.I32(3, static_cast<int32_t>(*e.repetition));
  w.Binary(4, e.name);
  if (!e.type) w.I32(5, e.num_children);
  if (e.converted_type) w.I32(6, *e.converted_type);
  if (e.logical.kind != Logical::kNone) {
    w.BeginStruct(10);  // the LogicalType union: one member, a struct
    w.BeginStruct(static_cast<int16_t>(e.logical.kind));
    if (e.logical.kind == Logical::kInteger) {
      w.Byte(1, e.logical.bit_width);
      w.Bool(2, e.logical.is_signed);
    }
    w.EndStruct();
    w.EndStruct();
  }
  w.EndStruct();
}

void WriteColumnMetaData(CompactWriter& w, const ColumnMetaData& m) {
  w.BeginStruct(3);
  w.I32(1, static_cast<int32_t>(m.type));
  w.ListHeader(2, Type::kI32, m.encodings.size());
  for (const int32_t e : m.encodings) w.ElementI32(e);
  w.ListHeader(3, Type::kBinary, m.path_in_schema.size());
  for (const auto& p : m.path_in_schema) w.ElementBinary(p);
  w.I32(4, static_cast<int32_t>(m.codec));
  w.I64(5, m.num_values);
  w.I64(6, m.total_uncompressed_size);
  w.I64(7, m.total_compressed_size);
  w.I64(9, m.data_page_offset);
  if (m.dictionary_page_offset) w.I64(11, *m.dictionary_page_offset);
  w.EndStruct();
}

void WriteRowGroup(CompactWriter& w, const RowGroup& g) {
  w.BeginStruct();
  w.ListHeader(1, Type::kStruct, g.columns.size());
  for (const auto& c : g.columns) {
    w.BeginStruct();
    if (c.file_path) w.Binary(1, *c.file_path);
    w.I64(2, c.file_offset);
    if (c.meta_data) WriteColumnMetaData(w, *c.meta_data);
    w.EndStruct();
  }
  w.I64(2, g.total_byte_size);
  w.I64(3, g.num_rows);
  if (g.file_offset) w.I64(5, *g.file_offset);
  if (g.total_compressed_size) w.I64(6, *g.total_compressed_size);
  w.EndStruct();
}

// Reads the fields of one struct: `field(id, type)` returns false for a field it does not
// take, which is then skipped.
template <typename Field>
void ReadStruct(CompactReader& r, Field field) {
  r.BeginStruct();
  int16_t id;
  Type type;
  while (r.NextField(&id, &type))
    if (!field(id, type)) r.Skip(type);
  r.EndStruct();
}

// A field of the expected type, or a DecodeError naming it.
bool Is(CompactReader& r, Type type, Type want, const char* name) {
  if (type != want) throw DecodeError(fmt::format("field {} has the wrong type", name), r.Offset());
  return true;
}

void Require(bool present, const char* name, size_t offset) {
  if (!present) throw DecodeError(fmt::format("required field {} is missing", name), offset);
}

template <typename Element>
void ReadList(CompactReader& r, Type type, Type want, const char* name, Element element) {
  Is(r, type, Type::kList, name);
  Type element_type;
  size_t n = 0;
  r.ListHeader(&element_type, &n);
  if (n > 0 && element_type != want)
    throw DecodeError(fmt::format("{} holds elements of the wrong type", name), r.Offset());
  for (size_t i = 0; i < n; ++i) element();
}

SchemaElement ReadSchemaElement(CompactReader& r) {
  SchemaElement e;
  const size_t start = r.Offset();
  bool has_name = false;
  ReadStruct(r, [&](int16_t id, Type type) {
    switch (id) {
      case 1:
        Is(r, type, Type::kI32, "SchemaElement.type");
        e.type = static_cast<PhysicalType>(r.I32());
        return true;
      case 2:
        Is(r, type, Type::kI32, "SchemaElement.type_length");
        e.type_length = r.I32();
        return true;
      case 3:
        Is(r, type, Type::kI32, "SchemaElement.repetition_type");
        e.repetition = static_cast<Repetition>(r.I32());
        return true;
      case 4:
        Is(r, type, Type::kBinary, "SchemaElement.name");
        e.name = r.Binary();
        has_name = true;
        return true;
      case 5:
        Is(r, type, Type::kI32, "SchemaElement.num_children");
        e.num_children = r.I32();
        return true;
      case 6:
        Is(r, type, Type::kI32, "SchemaElement.converted_type");
        e.converted_type = r.I32();
        return true;
      case 10:
        Is(r, type, Type::kStruct, "SchemaElement.logicalType");
        ReadStruct(r, [&](int16_t member, Type member_type) {
          Is(r, member_type, Type::kStruct, "LogicalType");
          e.logical.kind = static_cast<Logical>(member);
          if (member != static_cast<int16_t>(Logical::kInteger)) return false;  // skipped
          ReadStruct(r, [&](int16_t iid, Type itype) {
            if (iid == 1 && itype == Type::kByte) {
              e.logical.bit_width = r.I8();
              return true;
            }
            if (iid == 2 && (itype == Type::kTrue || itype == Type::kFalse)) {
              e.logical.is_signed = itype == Type::kTrue;
              return true;
            }
            return false;
          });
          return true;
        });
        return true;
    }
    return false;
  });
  Require(has_name, "SchemaElement.name", start);
  return e;
}

ColumnMetaData ReadColumnMetaData(CompactReader& r) {
  ColumnMetaData m;
  const size_t start = r.Offset();
  unsigned seen = 0;
  ReadStruct(r, [&](int16_t id, Type type) {
    if (id >= 1 && id <= 9) seen |= 1u << id;
    switch (id) {
      case 1:
        Is(r, type, Type::kI32, "ColumnMetaData.type");
        m.type = static_cast<PhysicalType>(r.I32());
        return true;
      case 2:
        ReadList(r, type, Type::kI32, "ColumnMetaData.encodings",
                 [&] { m.encodings.push_back(r.I32()); });
        return true;
      case 3:
        ReadList(r, type, Type::kBinary, "ColumnMetaData.path_in_schema",
                 [&] { m.path_in_schema.push_back(r.Binary()); });
        return true;
      case 4:
        Is(r, type, Type::kI32, "ColumnMetaData.codec");
        m.codec = static_cast<Codec>(r.I32());
        return true;
      case 5:
        Is(r, type, Type::kI64, "ColumnMetaData.num_values");
        m.num_values = r.I64();
        return true;
      case 6:
        Is(r, type, Type::kI64, "ColumnMetaData.total_uncompressed_size");
        m.total_uncompressed_size = r.I64();
        return true;
      case 7:
        Is(r, type, Type::kI64, "ColumnMetaData.total_compressed_size");
        m.total_compressed_size = r.I64();
        return true;
      case 9:
        Is(r, type, Type::kI64, "ColumnMetaData.data_page_offset");
        m.data_page_offset = r.I64();
        return true;
      case 11:
        Is(r, type, Type::kI64, "ColumnMetaData.dictionary_page_offset");
        m.dictionary_page_offset = r.I64();
        return true;
    }
    return false;
  });
  for (const int id : {1, 2, 3, 4, 5, 6, 7, 9})
    Require(seen & (1u << id), fmt::format("ColumnMetaData field {}", id).c_str(), start);
  return m;
}

RowGroup ReadRowGroup(CompactReader& r) {
  RowGroup g;
  const size_t start = r.Offset();
  unsigned seen = 0;
  ReadStruct(r, [&](int16_t id, Type type) {
    if (id >= 1 && id <= 3) seen |= 1u << id;
    switch (id) {
      case 1:
        ReadList(r, type, Type::kStruct, "RowGroup.columns", [&] {
          ColumnChunk c;
          ReadStruct(r, [&](int16_t cid, Type ctype) {
            if (cid == 1) {
              Is(r, ctype, Type::kBinary, "ColumnChunk.file_path");
              c.file_path = r.Binary();
              return true;
            }
            if (cid == 8 || cid == 9) c.encrypted = true;  // skipped: read no further
            if (cid == 2) {
              Is(r, ctype, Type::kI64, "ColumnChunk.file_offset");
              c.file_offset = r.I64();
              return true;
            }
            if (cid == 3) {
              Is(r, ctype, Type::kStruct, "ColumnChunk.meta_data");
              c.meta_data = ReadColumnMetaData(r);
              return true;
            }
            return false;
          });
          g.columns.push_back(std::move(c));
        });
        return true;
      case 2:
        Is(r, type, Type::kI64, "RowGroup.total_byte_size");
        g.total_byte_size = r.I64();
        return true;
      case 3:
        Is(r, type, Type::kI64, "RowGroup.num_rows");
        g.num_rows = r.I64();
        return true;
      case 5:
        Is(r, type, Type::kI64, "RowGroup.file_offset");
        g.file_offset = r.I64();
        return true;
      case 6:
        Is(r, type, Type::kI64, "RowGroup.total_compressed_size");
        g.total_compressed_size = r.I64();
        return true;
    }
    return false;
  });
  Require(seen == 0b1110, "RowGroup.columns, total_byte_size or num_rows", start);
  return g;
}
}  // namespace

int64_t ColumnMetaData::StartOffset() const {
  return dictionary_page_offset && *dictionary_page_offset > 0 &&
                 *dictionary_page_offset < data_page_offset
             ? *dictionary_page_offset
             : data_page_offset;
}

std::optional<std::string> FileMetaData::Value(const std::string& key) const {
  for (const auto& kv : key_value_metadata)
    if (kv.key == key) return kv.value;
  return std::nullopt;
}

std::string EncodeFileMetaData(const FileMetaData& m) {
  CompactWriter w;
  w.I32(1, m.version);
  w.ListHeader(2, Type::kStruct, m.schema.size());
  for (const auto& e : m.schema) WriteSchemaElement(w, e);
  w.I64(3, m.num_rows);
  w.ListHeader(4, Type::kStruct, m.row_groups.size());
  for (const auto& g : m.row_groups) WriteRowGroup(w, g);
  if (!m.key_value_metadata.empty()) {
    w.ListHeader(5, Type::kStruct, m.key_value_metadata.size());
    for (const auto& kv : m.key_value_metadata) {
      w.BeginStruct();
      w.Binary(1, kv.key);
      w.Binary(2, kv.value);
      w.EndStruct();
    }
  }
  if (!m.created_by.empty()) w.Binary(6, m.created_by);
  return w.Finish();
}

std::string EncodePageHeader(const PageHeader& h) {
  CompactWriter w;
  w.I32(1, static_cast<int32_t>(h.type));
  w.I32(2, h.uncompressed_page_size);
  w.I32(3, h.compressed_page_size);
  if (h.data_page_header) {
    const DataPageHeader& d = *h.data_page_header;
    w.BeginStruct(5);
    w.I32(1, d.num_values);
    w.I32(2, d.encoding);
    w.I32(3, d.definition_level_encoding);
    w.I32(4, d.repetition_level_encoding);
    w.EndStruct();
  }
  if (h.dictionary_page_header) {
    w.BeginStruct(7);
    w.I32(1, h.dictionary_page_header->num_values);
    w.I32(2, h.dictionary_page_header->encoding);
    w.EndStruct();
  }
  return w.Finish();
}

FileMetaData DecodeFileMetaData(const unsigned char* data, size_t size) {
  CompactReader r(data, size);
  FileMetaData m;
  unsigned seen = 0;
  int16_t id;
  Type type;
  while (r.NextField(&id, &type)) {
    if (id >= 1 && id <= 4) seen |= 1u << id;
    switch (id) {
      case 1:
        Is(r, type, Type::kI32, "FileMetaData.version");
        m.version = r.I32();
        break;
      case 2:
        ReadList(r, type, Type::kStruct, "FileMetaData.schema",
                 [&] { m.schema.push_back(ReadSchemaElement(r)); });
        break;
      case 3:
        Is(r, type, Type::kI64, "FileMetaData.num_rows");
        m.num_rows = r.I64();
        break;
      case 4:
        ReadList(r, type, Type::kStruct, "FileMetaData.row_groups",
                 [&] { m.row_groups.push_back(ReadRowGroup(r)); });
        break;
      case 5:
        ReadList(r, type, Type::kStruct, "FileMetaData.key_value_metadata", [&] {
          KeyValue kv;
          ReadStruct(r, [&](int16_t kid, Type ktype) {
            if (kid != 1 && kid != 2) return false;
            Is(r, ktype, Type::kBinary, "KeyValue");
            (kid == 1 ? kv.key : kv.value) = r.Binary();
            return true;
          });
          m.key_value_metadata.push_back(std::move(kv));
        });
        break;
      case 6:
        Is(r, type, Type::kBinary, "FileMetaData.created_by");
        m.created_by = r.Binary();
        break;
      case 8:
        m.encrypted = true;
        r.Skip(type);
        break;
      default:
        r.Skip(type);
    }
  }
  Require(seen == 0b11110, "FileMetaData.version, schema, num_rows or row_groups", 0);
  return m;
}

PageHeader DecodePageHeader(const unsigned char* data, size_t size, size_t* header_bytes) {
  CompactReader r(data, size);
  PageHeader h;
  unsigned seen = 0;
  int16_t id;
  Type type;
  while (r.NextField(&id, &type)) {
    if (id >= 1 && id <= 3) seen |= 1u << id;
    switch (id) {
      case 1:
        Is(r, type, Type::kI32, "PageHeader.type");
        h.type = static_cast<PageType>(r.I32());
        break;
      case 2:
        Is(r, type, Type::kI32, "PageHeader.uncompressed_page_size");
        h.uncompressed_page_size = r.I32();
        break;
      case 3:
        Is(r, type, Type::kI32, "PageHeader.compressed_page_size");
        h.compressed_page_size = r.I32();
        break;
      case 5: {
        Is(r, type, Type::kStruct, "PageHeader.data_page_header");
        DataPageHeader d;
        const size_t start = r.Offset();
        unsigned dseen = 0;
        ReadStruct(r, [&](int16_t did, Type dtype) {
          if (did < 1 || did > 4) return false;
          Is(r, dtype, Type::kI32, "DataPageHeader");
          dseen |= 1u << did;
          const int32_t v = r.I32();
          (did == 1   ? d.num_values
           : did == 2 ? d.encoding
           : did == 3 ? d.definition_level_encoding
                      : d.repetition_level_encoding) = v;
          return true;
        });
        Require(dseen == 0b11110, "DataPageHeader's four fields", start);
        h.data_page_header = d;
        break;
      }
      case 7: {
        Is(r, type, Type::kStruct, "PageHeader.dictionary_page_header");
        DictionaryPageHeader d;
        const size_t start = r.Offset();
        unsigned dseen = 0;
        ReadStruct(r, [&](int16_t did, Type dtype) {
          if (did != 1 && did != 2) return false;
          Is(r, dtype, Type::kI32, "DictionaryPageHeader");
          dseen |= 1u << did;
          (did == 1 ? d.num_values : d.encoding) = r.I32();
          return true;
        });
        Require(dseen == 0b110, "DictionaryPageHeader's num_values and encoding", start);
        h.dictionary_page_header = d;
        break;
      }
      default:
        r.Skip(type);
    }
  }
  Require(seen == 0b1110, "PageHeader.type, uncompressed_page_size or compressed_page_size", 0);
  *header_bytes = r.Offset();
  return h;
}

}  // namespace trainbench::formats::parquet
