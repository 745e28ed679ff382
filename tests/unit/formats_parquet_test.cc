#include <gtest/gtest.h>

#include <cstring>

#include "common/error.h"
#include "format_test_support.h"
#include "formats/parquet/parquet.h"
#include "formats/parquet/parquet_codec.h"
#include "formats/parquet/parquet_columns.h"
#include "formats/parquet/parquet_footer.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/thrift_compact.h"

namespace trainbench::formats {
namespace {

using ParquetTest = FormatTest;
using parquet::Codec;

const unsigned char* U(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

config::WorkloadConfig DlrmLike(config::Compression compression = config::Compression::kNone) {
  config::WorkloadConfig c;
  c.dataset.format = "parquet";
  c.dataset.compression = compression;
  c.dataset.parquet.row_group_size = 3;
  c.dataset.parquet.columns = {{"label", "float32", 1, true},
                               {"numerical_features", "float32", 13, true},
                               {"categorical_features", "int64", 26, false},
                               {"half", "float16", 3, true}};
  return c;
}

std::string VerifyMessage(const FileFormat& format, const WrittenFile& file, storage::Storage& s) {
  try {
    format.Verify(file, s);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "";
}

TEST(ThriftCompactTest, EncodesAsTheSpecSays) {
  thrift::CompactWriter w;
  w.I32(1, 1);                               // delta 1, i32: 0x15, zigzag(1) = 2
  w.I64(3, -1);                              // delta 2, i64: 0x26, zigzag(-1) = 1
  w.Binary(20, "ab");                        // delta 17 > 15: long form, type then zigzag(20) = 40
  w.Bool(21, true);                          // delta 1, true: 0x11
  w.ListHeader(22, thrift::Type::kI32, 20);  // 0x19, then 0xf5 and the size 20
  for (int i = 0; i < 20; ++i) w.ElementI32(i);
  const std::string bytes = w.Finish();
  const std::string head = std::string(
      "\x15\x02\x26\x01\x08\x28\x02"
      "ab"
      "\x11\x19\xf5\x14",
      13);
  EXPECT_EQ(bytes.substr(0, head.size()), head);
  EXPECT_EQ(bytes.back(), '\0');
}

TEST(ThriftCompactTest, RoundTripsAndSkipsUnknownFields) {
  thrift::CompactWriter w;
  w.I32(1, -123456);
  w.I64(2, int64_t{1} << 40);
  w.BeginStruct(3);
  w.Binary(1, std::string(300, 'x'));
  w.EndStruct();
  w.Bool(4, false);
  w.ListHeader(5, thrift::Type::kBinary, 2);
  w.ElementBinary("p");
  w.ElementBinary("q");
  w.I32(300, 7);
  const std::string bytes = w.Finish();

  thrift::CompactReader r(U(bytes), bytes.size());
  int16_t id;
  thrift::Type type;
  ASSERT_TRUE(r.NextField(&id, &type));
  EXPECT_EQ(id, 1);
  EXPECT_EQ(r.I32(), -123456);
  ASSERT_TRUE(r.NextField(&id, &type));
  EXPECT_EQ(r.I64(), int64_t{1} << 40);
  ASSERT_TRUE(r.NextField(&id, &type));
  EXPECT_EQ(type, thrift::Type::kStruct);
  r.Skip(type);
  ASSERT_TRUE(r.NextField(&id, &type));
  EXPECT_EQ(type, thrift::Type::kFalse);
  ASSERT_TRUE(r.NextField(&id, &type));
  r.Skip(type);
  ASSERT_TRUE(r.NextField(&id, &type));
  EXPECT_EQ(id, 300);
  EXPECT_EQ(r.I32(), 7);
  EXPECT_FALSE(r.NextField(&id, &type));
  EXPECT_EQ(r.Offset(), bytes.size());
  // Cut anywhere, decoding fails with an offset inside the bytes, never past them.
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    thrift::CompactReader c(U(bytes), cut);
    try {
      while (c.NextField(&id, &type)) c.Skip(type);
      ADD_FAILURE() << "cut at " << cut << " decoded";
    } catch (const thrift::DecodeError& e) {
      EXPECT_LE(e.offset(), cut);
    }
  }
}

TEST(ParquetMetadataTest, FooterAndPageHeaderRoundTrip) {
  parquet::FileMetaData m;
  m.schema = parquet::SchemaFor(parquet::ColumnLayouts(DlrmLike().dataset.parquet, 1));
  m.num_rows = 7;
  parquet::RowGroup g;
  g.num_rows = 7;
  g.total_byte_size = 999;
  g.file_offset = 4;
  parquet::ColumnChunk chunk;
  chunk.file_offset = 4;
  chunk.meta_data = parquet::ColumnMetaData{};
  chunk.meta_data->type = parquet::PhysicalType::kFloat;
  chunk.meta_data->encodings = {0};
  chunk.meta_data->path_in_schema = {"label"};
  chunk.meta_data->codec = Codec::kZstd;
  chunk.meta_data->num_values = 7;
  chunk.meta_data->total_uncompressed_size = 50;
  chunk.meta_data->total_compressed_size = 40;
  chunk.meta_data->data_page_offset = 4;
  g.columns = {chunk};
  m.row_groups = {g, g};
  m.key_value_metadata = {{"trainbench.seed", "42"}};
  m.created_by = "test";
  const std::string bytes = parquet::EncodeFileMetaData(m);
  const parquet::FileMetaData d = parquet::DecodeFileMetaData(U(bytes), bytes.size());
  // DLIO's (pyarrow's) layout: a scalar, then three fixed-size lists, each
  // optional group <name> (LIST) { repeated group list { optional <type> element; } }.
  ASSERT_EQ(d.schema.size(), 11u);
  EXPECT_EQ(d.schema[0].num_children, 4);
  EXPECT_EQ(d.schema[1].type, parquet::PhysicalType::kFloat);  // a scalar float32
  EXPECT_EQ(d.schema[1].repetition, parquet::Repetition::kOptional);
  EXPECT_EQ(d.schema[2].name, "numerical_features");
  EXPECT_FALSE(d.schema[2].type);
  EXPECT_EQ(d.schema[2].num_children, 1);
  EXPECT_EQ(d.schema[2].converted_type, parquet::kConvertedList);
  EXPECT_EQ(d.schema[2].logical.kind, parquet::Logical::kList);
  EXPECT_EQ(d.schema[3].name, "list");
  EXPECT_EQ(d.schema[3].repetition, parquet::Repetition::kRepeated);
  EXPECT_EQ(d.schema[4].name, "element");
  EXPECT_EQ(d.schema[4].type, parquet::PhysicalType::kFloat);
  EXPECT_EQ(d.schema[4].repetition, parquet::Repetition::kOptional);
  EXPECT_EQ(d.schema[7].type, parquet::PhysicalType::kInt64);               // categorical_features
  EXPECT_EQ(d.schema[10].type, parquet::PhysicalType::kFixedLenByteArray);  // float16
  EXPECT_EQ(d.schema[10].type_length, 2);
  EXPECT_EQ(d.schema[10].logical.kind, parquet::Logical::kFloat16);
  EXPECT_EQ(d.num_rows, 7);
  ASSERT_EQ(d.row_groups.size(), 2u);
  EXPECT_EQ(d.row_groups[1].total_byte_size, 999);
  const auto& cm = *d.row_groups[1].columns.at(0).meta_data;
  EXPECT_EQ(cm.codec, Codec::kZstd);
  EXPECT_EQ(cm.path_in_schema, std::vector<std::string>{"label"});
  EXPECT_EQ(cm.total_compressed_size, 40);
  EXPECT_EQ(d.Value("trainbench.seed"), "42");
  EXPECT_EQ(d.created_by, "test");

  parquet::PageHeader h;
  h.uncompressed_page_size = 1 << 20;
  h.compressed_page_size = 12345;
  h.data_page_header = parquet::DataPageHeader{8192};
  const std::string hb = parquet::EncodePageHeader(h);
  size_t used = 0;
  const auto hd = parquet::DecodePageHeader(U(hb + "trailing"), hb.size() + 8, &used);
  EXPECT_EQ(used, hb.size());
  EXPECT_EQ(hd.compressed_page_size, 12345);
  EXPECT_EQ(hd.data_page_header->num_values, 8192);
  // A dictionary page's header, and an unsigned INTEGER annotation (its byte and bool).
  parquet::PageHeader dict;
  dict.type = parquet::PageType::kDictionaryPage;
  dict.dictionary_page_header = parquet::DictionaryPageHeader{256};
  const std::string db = parquet::EncodePageHeader(dict);
  const auto dd = parquet::DecodePageHeader(U(db), db.size(), &used);
  ASSERT_TRUE(dd.dictionary_page_header);
  EXPECT_EQ(dd.dictionary_page_header->num_values, 256);
  parquet::FileMetaData u8;
  u8.schema = parquet::SchemaFor(parquet::ColumnLayouts({}, 10));
  const std::string ub = parquet::EncodeFileMetaData(u8);
  const auto ud = parquet::DecodeFileMetaData(U(ub), ub.size());
  ASSERT_EQ(ud.schema.size(), 4u);
  EXPECT_EQ(ud.schema[3].logical, (parquet::LogicalType{parquet::Logical::kInteger, 8, false}));
  EXPECT_EQ(ud.schema[3].converted_type, parquet::kConvertedUint8);
  // A footer without its row groups is not one.
  thrift::CompactWriter w;
  w.I32(1, 1);
  const std::string partial = w.Finish();
  EXPECT_THROW(parquet::DecodeFileMetaData(U(partial), partial.size()), thrift::DecodeError);
}

TEST(ParquetCodecTest, EveryCodecRoundTrips) {
  std::vector<unsigned char> data(300000);
  parquet::FillColumnValues(5, 0, parquet::ColumnLayouts({}, 1000)[0], 0, 300, data.data());
  for (const Codec codec :
       {Codec::kUncompressed, Codec::kSnappy, Codec::kGzip, Codec::kZstd, Codec::kLz4Raw}) {
    SCOPED_TRACE(parquet::CodecName(codec));
    std::vector<unsigned char> packed, back(data.size());
    parquet::Compress(codec, 4, data.data(), data.size(), packed);
    EXPECT_EQ(parquet::Decompress(codec, packed.data(), packed.size(), back.data(), back.size()),
              "");
    EXPECT_EQ(back, data);
    if (codec != Codec::kUncompressed && !packed.empty()) {
      packed[packed.size() / 2] ^= 0xff;
      packed.resize(packed.size() - 1);
      EXPECT_NE(parquet::Decompress(codec, packed.data(), packed.size(), back.data(), back.size()),
                "");
    }
  }
}

TEST(ParquetColumnsTest, FloatsAreInTheUnitInterval) {
  const auto columns = parquet::ColumnLayouts(DlrmLike().dataset.parquet, 1);
  std::vector<unsigned char> values(columns[1].value_bytes * 100);
  parquet::FillColumnValues(9, 1, columns[1], 0, 100, values.data());
  for (size_t i = 0; i < values.size() / 4; ++i) {
    float f;
    std::memcpy(&f, &values[4 * i], 4);
    ASSERT_TRUE(f >= 0 && f < 1) << f;
  }
  // Any range of rows gives the same values as the whole.
  std::vector<unsigned char> part(columns[1].value_bytes * 7);
  parquet::FillColumnValues(9, 1, columns[1], 40, 7, part.data());
  EXPECT_EQ(std::memcmp(part.data(), &values[40 * columns[1].value_bytes], part.size()), 0);
  // float16 0.5 is 0x3800; every half is below 1.0 (0x3c00).
  std::vector<unsigned char> halves(columns[3].value_bytes * 50);
  parquet::FillColumnValues(9, 3, columns[3], 0, 50, halves.data());
  for (size_t i = 0; i < halves.size() / 2; ++i) {
    uint16_t h;
    std::memcpy(&h, &halves[2 * i], 2);
    EXPECT_LT(h, 0x3c00);
  }
  EXPECT_EQ(parquet::DescribeColumns(parquet::ParseColumns(parquet::DescribeColumns(columns))),
            "label:float32:1,numerical_features:float32:13,categorical_features:int64:26,"
            "half:float16:3");
}

TEST_F(ParquetTest, RoundTripsWithEveryCodecAndScanFindsTheSameExtents) {
  for (const auto compression :
       {config::Compression::kNone, config::Compression::kSnappy, config::Compression::kGzip,
        config::Compression::kZstd, config::Compression::kLz4}) {
    SCOPED_TRACE(config::ToString(compression));
    const auto config = DlrmLike(compression);
    ParquetFormat format(config);
    const FileSpec spec{"train/a.parquet", 42, std::vector<uint64_t>(8, 144)};
    const WrittenFile written = format.Write(spec, storage());
    ASSERT_EQ(written.num_samples, 8u);
    EXPECT_TRUE(written.samples.empty());
    EXPECT_EQ(VerifyMessage(format, written, storage()), "");
    ExpectSameExtents(written, format.Scan(spec.path, storage()));
    // Row groups of rows 0-2, 3-5 and 6-7; each one's four column chunks back to back
    // from "PAR1".
    ASSERT_EQ(written.units.size(), 3u);
    uint64_t at = 4, first = 0;
    for (const auto& unit : written.units) {
      EXPECT_EQ(unit.first_sample, first);
      ASSERT_EQ(unit.extents.size(), 4u);
      for (const auto& chunk : unit.extents) {
        EXPECT_EQ(chunk.offset, at);
        at += chunk.length;
      }
      first += unit.num_samples;
    }
    EXPECT_EQ(written.units[2].num_samples, 2u);
    const auto bytes = Bytes(spec.path);
    ASSERT_GT(bytes.size(), 12u);
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "PAR1");
    EXPECT_EQ(std::string(bytes.end() - 4, bytes.end()), "PAR1");
    uint32_t footer;
    std::memcpy(&footer, &bytes[bytes.size() - 8], 4);
    EXPECT_EQ(at, bytes.size() - 8 - footer);
    if (compression == config::Compression::kNone) {
      // Every row's value bytes, plus each chunk's page header: 3 groups x 4 columns.
      const uint64_t data = bytes.size() - 12 - footer;
      EXPECT_GT(data, 8u * (4 + 52 + 208 + 6));
      EXPECT_LT(data, 8u * (4 + 52 + 208 + 6) + 12 * 32);
    }
  }
}

TEST_F(ParquetTest, WithoutColumnsOneDataColumnOfTheSampleSize) {
  config::WorkloadConfig c;
  c.dataset.format = "parquet";
  ParquetFormat format(c);
  const WrittenFile written = format.Write({"a.parquet", 7, {2500, 2500, 2500}}, storage());
  EXPECT_EQ(VerifyMessage(format, written, storage()), "");
  auto file = storage().Open("a.parquet");
  const auto footer = parquet::ReadFooter(*file, file->Size(), "a.parquet");
  // DLIO's: a fixed-size list of 2500 uint8, dictionary-encoded as pyarrow does.
  ASSERT_EQ(footer.metadata.schema.size(), 4u);
  EXPECT_EQ(footer.metadata.schema[1].name, "data");
  EXPECT_EQ(footer.metadata.schema[3].type, parquet::PhysicalType::kInt32);
  ASSERT_EQ(footer.metadata.row_groups.size(), 1u);  // no row_group_size: one group
  const auto& m = *footer.metadata.row_groups[0].columns.at(0).meta_data;
  EXPECT_EQ(m.num_values, 3 * 2500);
  ASSERT_TRUE(m.dictionary_page_offset);
  EXPECT_EQ(*m.dictionary_page_offset, 4);
  // One byte an element, the levels a few bytes: the row stays its sample's size.
  EXPECT_LT(m.total_uncompressed_size, 3 * 2500 + 4 * 256 + 200);
  EXPECT_EQ(footer.metadata.Value("trainbench.seed"), "7");
}

TEST_F(ParquetTest, SameSeedSameBytes) {
  ParquetFormat format(DlrmLike(config::Compression::kSnappy));
  format.Write({"a.parquet", 7, {10, 10, 10, 10}}, storage());
  format.Write({"b.parquet", 7, {10, 10, 10, 10}}, storage());
  format.Write({"c.parquet", 8, {10, 10, 10, 10}}, storage());
  EXPECT_EQ(Bytes("a.parquet"), Bytes("b.parquet"));
  EXPECT_NE(Bytes("a.parquet"), Bytes("c.parquet"));
}

TEST_F(ParquetTest, VerifyAndScanNameTheDamage) {
  ParquetFormat format(DlrmLike());
  const FileSpec spec{"a.parquet", 3, std::vector<uint64_t>(5, 100)};
  const WrittenFile written = format.Write(spec, storage());
  const uint64_t size = written.size_bytes;
  uint32_t footer_length;
  std::memcpy(&footer_length, &Bytes("a.parquet")[size - 8], 4);
  const uint64_t footer_at = size - 8 - footer_length;

  // A value: the offset of the byte that changed.
  const uint64_t value_at = written.units[0].extents[1].offset + 30;
  FlipByte("a.parquet", value_at);
  const std::string value_error = VerifyMessage(format, written, storage());
  EXPECT_NE(value_error.find("offset " + std::to_string(value_at)), std::string::npos)
      << value_error;
  FlipByte("a.parquet", value_at);
  EXPECT_EQ(VerifyMessage(format, written, storage()), "");

  // The footer: decoding fails at an offset inside it, which the message names.
  FlipByte("a.parquet", footer_at);
  for (const auto& message : {VerifyMessage(format, written, storage()), [&] {
                                try {
                                  format.Scan("a.parquet", storage());
                                } catch (const RuntimeError& e) {
                                  return std::string(e.what());
                                }
                                return std::string();
                              }()}) {
    EXPECT_NE(message.find("bad Parquet file at offset " + std::to_string(footer_at)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("footer"), std::string::npos) << message;
  }
  FlipByte("a.parquet", footer_at);

  // The footer's length, and each magic.
  FlipByte("a.parquet", size - 6);
  EXPECT_NE(VerifyMessage(format, written, storage()).find("footer length"), std::string::npos);
  FlipByte("a.parquet", size - 6);
  FlipByte("a.parquet", size - 1);
  EXPECT_NE(VerifyMessage(format, written, storage()).find("no PAR1 magic at the end"),
            std::string::npos);
  FlipByte("a.parquet", size - 1);
  FlipByte("a.parquet", 0);
  EXPECT_NE(VerifyMessage(format, written, storage()).find("offset 0"), std::string::npos);
  FlipByte("a.parquet", 0);

  // A page header (the first byte of the first chunk).
  FlipByte("a.parquet", 4);
  EXPECT_NE(VerifyMessage(format, written, storage()).find("page"), std::string::npos);
  FlipByte("a.parquet", 4);
  EXPECT_EQ(VerifyMessage(format, written, storage()), "");

  // Cut short: the size, then the magic.
  Truncate("a.parquet", size - 3);
  EXPECT_NE(VerifyMessage(format, written, storage()).find(std::to_string(size - 3)),
            std::string::npos);
  EXPECT_THROW(format.Scan("a.parquet", storage()), RuntimeError);
}

TEST_F(ParquetTest, VerifyRejectsAFileOfOtherSettings) {
  const WrittenFile written =
      ParquetFormat(DlrmLike()).Write({"a.parquet", 3, std::vector<uint64_t>(5, 100)}, storage());
  auto other = DlrmLike();
  other.dataset.parquet.columns[1].size = 12;
  EXPECT_NE(VerifyMessage(ParquetFormat(other), written, storage()).find("the config says"),
            std::string::npos);
  auto zstd = DlrmLike(config::Compression::kZstd);
  EXPECT_NE(VerifyMessage(ParquetFormat(zstd), written, storage()).find("ZSTD"), std::string::npos);
  auto groups = DlrmLike();
  groups.dataset.parquet.row_group_size = 2;
  EXPECT_NE(VerifyMessage(ParquetFormat(groups), written, storage()).find("row group 0"),
            std::string::npos);
}

std::string ScanMessage(const ParquetFormat& format, storage::Storage& s) {
  try {
    format.Scan("a.parquet", s);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "";
}

TEST_F(ParquetTest, ScanRefusesWhatARunDoesNotReadByName) {
  ParquetFormat format(DlrmLike());
  format.Write({"a.parquet", 3, std::vector<uint64_t>(5, 100)}, storage());
  EXPECT_EQ(ScanMessage(format, storage()), "");
  // Rewrites the footer through `edit`, keeping the data.
  const auto EditFooter = [&](auto edit) {
    auto file = storage().Open("a.parquet");
    const auto footer = parquet::ReadFooter(*file, file->Size(), "a.parquet");
    parquet::FileMetaData m = footer.metadata;
    edit(m);
    auto bytes = Bytes("a.parquet");
    bytes.resize(footer.offset);
    std::string tail = parquet::EncodeFileMetaData(m);
    const auto length = static_cast<uint32_t>(tail.size());
    tail += std::string(reinterpret_cast<const char*>(&length), 4) + "PAR1";
    bytes.insert(bytes.end(), tail.begin(), tail.end());
    Put("a.parquet", bytes);
  };
  EditFooter(
      [](parquet::FileMetaData& m) { m.row_groups[0].columns[1].file_path = "other.parquet"; });
  EXPECT_NE(ScanMessage(format, storage())
                .find("a column chunk in another file (ColumnChunk.file_path 'other.parquet'): "
                      "trainbench does not read this Parquet feature"),
            std::string::npos)
      << ScanMessage(format, storage());
  EditFooter([](parquet::FileMetaData& m) {
    m.row_groups[0].columns[1].file_path.reset();
    // Two leaves under one column: a struct.
    m.row_groups[0].columns[2].meta_data->path_in_schema = {"numerical_features", "b"};
  });
  EXPECT_NE(ScanMessage(format, storage())
                .find("column 'numerical_features' has several leaf columns (a struct or map"),
            std::string::npos)
      << ScanMessage(format, storage());
  // A chunk whose metadata is elsewhere: encrypted (ColumnChunk.encrypted_column_metadata).
  EditFooter([](parquet::FileMetaData& m) {
    m.row_groups[0].columns[2].meta_data->path_in_schema = {"categorical_features"};
    m.row_groups[0].columns[3].meta_data.reset();
  });
  EXPECT_NE(ScanMessage(format, storage())
                .find("an encrypted column chunk (ColumnChunk.crypto_metadata): trainbench does "
                      "not read this Parquet feature"),
            std::string::npos)
      << ScanMessage(format, storage());
  auto bytes = Bytes("a.parquet");
  std::memcpy(bytes.data(), "PARE", 4);
  Put("a.parquet", bytes);
  EXPECT_NE(ScanMessage(format, storage()).find("an encrypted footer (PARE)"), std::string::npos)
      << ScanMessage(format, storage());
}

TEST(ParquetCheckTest, BadSettingsNameTheKey) {
  auto c = DlrmLike();
  EXPECT_NO_THROW(CheckFormat(c));
  c.dataset.compression = config::Compression::kLzf;
  EXPECT_THROW(
      {
        try {
          CheckFormat(c);
        } catch (const UsageError& e) {
          EXPECT_NE(std::string(e.what()).find("dataset.compression lzf"), std::string::npos);
          throw;
        }
      },
      UsageError);
  c = DlrmLike();
  c.dataset.parquet.columns[2].dtype = "string";
  try {
    CheckFormat(c);
    ADD_FAILURE() << "a string column passed";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("dataset.parquet.columns: column 2"), std::string::npos)
        << e.what();
  }
}

TEST_F(ParquetTest, SelectReadsKeepsTheChunksOfColumnsMarkedRead) {
  auto config = DlrmLike();
  ParquetFormat format(config);
  WrittenFile file = format.Write({"a.parquet", 5, std::vector<uint64_t>(7, 100)}, storage());
  const WrittenFile all = file;
  format.SelectReads(file);  // categorical_features (column 2) is read: false
  ASSERT_EQ(file.units.size(), 3u);
  for (size_t u = 0; u < 3; ++u) {
    ASSERT_EQ(file.units[u].extents.size(), 3u);
    EXPECT_EQ(file.units[u].extents[1].offset, all.units[u].extents[1].offset);
    EXPECT_EQ(file.units[u].extents[2].offset, all.units[u].extents[3].offset);
    EXPECT_EQ(file.units[u].Bytes(), all.units[u].Bytes() - all.units[u].extents[2].length);
  }
  // No column marked read: DLIO's reader asks pyarrow for every column.
  for (auto& c : config.dataset.parquet.columns) c.read = false;
  WrittenFile none = all;
  ParquetFormat(config).SelectReads(none);
  EXPECT_EQ(none.units[0].extents.size(), 4u);
  // A file with other columns than the config's is refused, naming it.
  config.dataset.parquet.columns.pop_back();
  config.dataset.parquet.columns[0].read = true;
  WrittenFile other = all;
  try {
    ParquetFormat(config).SelectReads(other);
    ADD_FAILURE() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("a.parquet: a row group has 4 column chunks"),
              std::string::npos)
        << e.what();
  }
  try {
    ParquetFormat(config).Scan("a.parquet", storage());
    ADD_FAILURE() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("label,numerical_features,categorical_features,half, "
                                         "dataset.parquet.columns says label,numerical_features,"
                                         "categorical_features"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace trainbench::formats
