#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zip.h>

#include <cstring>

#include "common/random.h"
#include "format_test_support.h"
#include "formats/numpy/npy_header.h"
#include "formats/numpy/npz.h"
#include "formats/wire/block_writer.h"
#include "formats/wire/crc32c.h"
#include "formats/zip/zip_directory.h"
#include "formats/zip/zip_writer.h"

namespace trainbench::formats {
namespace {

using NpzTest = FormatTest;

TEST_F(NpzTest, StoredRoundTripsWithExactExtents) {
  NpzFormat format(-1);
  const FileSpec spec{"train/a.npz", 42, {4900, 4900, 4900}};
  const WrittenFile written = format.Write(spec, storage());
  ASSERT_EQ(written.samples.size(), 3u);
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  ExpectSameExtents(written, format.Scan(spec.path, storage()));
  // Each extent holds the sample's random bytes, right after x.npy's npy header.
  const auto bytes = Bytes(spec.path);
  for (uint64_t i = 0; i < 3; ++i) {
    std::vector<unsigned char> want(4900);
    FillRandom(spec.seed, i * 4900, want.data(), want.size());
    EXPECT_EQ(std::memcmp(&bytes[written.samples[i].offset], want.data(), want.size()), 0) << i;
  }
  // DLIO's shape, samples on the last axis (its reader takes x[..., i]).
  const std::string text(bytes.begin(), bytes.begin() + 256);
  EXPECT_NE(text.find("'shape': (70, 70, 3)"), std::string::npos);
  // The local header of x.npy starts the file: 30 bytes, the name, a 20-byte ZIP64 extra.
  EXPECT_EQ(written.samples[0].offset, 30u + 5 + 20 + EncodeNpyHeader("|u1", {70, 70, 3}).size());
}

TEST_F(NpzTest, DeflatedRoundTripsWithoutExtents) {
  NpzFormat format(4);
  const FileSpec spec{"a.npz", 9, {19600, 19600}};
  const WrittenFile written = format.Write(spec, storage());
  EXPECT_TRUE(written.samples.empty());
  EXPECT_EQ(written.num_samples, 2u);
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  const WrittenFile scanned = format.Scan(spec.path, storage());
  EXPECT_EQ(scanned.num_samples, 2u);
  EXPECT_TRUE(scanned.samples.empty());
  auto file = storage().Open(spec.path);
  const auto members = ReadZipDirectory(*file, spec.path);
  EXPECT_EQ(FindZipMember(members, "x.npy", spec.path).method, 8);
}

TEST_F(NpzTest, SameSeedSameBytes) {
  for (const int level : {-1, 1}) {
    NpzFormat format(level);
    format.Write({"a.npz", 3, {729, 729}}, storage());
    format.Write({"b.npz", 3, {729, 729}}, storage());
    format.Write({"c.npz", 4, {729, 729}}, storage());
    EXPECT_EQ(Bytes("a.npz"), Bytes("b.npz")) << level;
    EXPECT_NE(Bytes("a.npz"), Bytes("c.npz")) << level;
  }
}

TEST_F(NpzTest, VerifyCatchesDamagedPayloadAndNamesWhere) {
  for (const int level : {-1, 6}) {
    NpzFormat format(level);
    const WrittenFile written = format.Write({"a.npz", 5, {3969, 3969}}, storage());
    auto file = storage().Open("a.npz");
    const ZipMember x = FindZipMember(ReadZipDirectory(*file, "a.npz"), "x.npy", "a.npz");
    file.reset();
    FlipByte("a.npz", x.data_offset + 3000);  // inside x's payload: only the CRC tells
    const std::string error = VerifyError(format, written, storage());
    EXPECT_NE(error.find(std::to_string(x.data_offset)), std::string::npos) << error;
  }
}

TEST_F(NpzTest, VerifyCatchesTruncationAndBrokenDirectory) {
  NpzFormat format(-1);
  const WrittenFile written = format.Write({"a.npz", 5, {3969, 3969}}, storage());
  Truncate("a.npz", written.size_bytes - 1);
  EXPECT_NE(VerifyError(format, written, storage()).find(std::to_string(written.size_bytes - 1)),
            std::string::npos);
  format.Write({"a.npz", 5, {3969, 3969}}, storage());
  // The last central header's signature: the directory then no longer parses.
  auto bytes = Bytes("a.npz");
  const uint64_t end = written.size_bytes - 22 - 20 - 56;  // classic, locator, ZIP64 end
  const uint64_t y_header = end - (46 + 5 + 28);
  ASSERT_EQ(bytes[y_header], 0x50);
  FlipByte("a.npz", y_header);
  EXPECT_NE(VerifyError(format, written, storage()).find(std::to_string(y_header)),
            std::string::npos);
}

// A damaged ZIP64 locator or end record: the error names the record's own offset, inside
// the file, not the impossible offset the damaged field holds.
TEST_F(NpzTest, DamagedZip64RecordsAreNamedWhereTheyAre) {
  NpzFormat format(-1);
  const WrittenFile written = format.Write({"a.npz", 5, {3969, 3969}}, storage());
  const uint64_t locator = written.size_bytes - 22 - 20;  // before the classic end record
  const uint64_t zip64_end = locator - 56;
  auto error_with = [&](uint64_t at, size_t count) {
    format.Write({"a.npz", 5, {3969, 3969}}, storage());
    auto bytes = Bytes("a.npz");
    for (size_t i = 0; i < count; ++i) bytes[at + i] = 0xff;
    Put("a.npz", bytes);
    std::string error;
    try {
      format.Scan("a.npz", storage());
    } catch (const RuntimeError& e) {
      error = e.what();
    }
    EXPECT_EQ(VerifyError(format, written, storage()), error);
    return error;
  };
  // The locator's offset of the ZIP64 end record (8 bytes at +8).
  std::string error = error_with(locator + 8, 8);
  EXPECT_NE(error.find(fmt::format("at offset {}:", locator + 8)), std::string::npos) << error;
  EXPECT_NE(error.find("ZIP64 locator"), std::string::npos) << error;
  // The ZIP64 end record's directory offset (8 bytes at +48).
  error = error_with(zip64_end + 48, 8);
  EXPECT_NE(error.find(fmt::format("at offset {}:", zip64_end)), std::string::npos) << error;
  EXPECT_NE(error.find("central directory"), std::string::npos) << error;
}

TEST_F(NpzTest, ScanReadsDlioLayoutWithSamplesOnTheLastAxis) {
  // DLIO's np.savez writes x as (dim1, dim2, num_samples).
  const std::string header = EncodeNpyHeader("|u1", {4, 5, 3});
  {
    auto out = storage().Create("dlio.npz");
    BlockWriter writer(*out);
    ZipWriter zip(writer);
    std::vector<unsigned char> payload(60, 7);
    const uint32_t crc = Crc32(payload.data(), payload.size(), Crc32(header.data(), header.size()));
    zip.BeginStored("x.npy", header.size() + payload.size(), crc);
    writer.Append(header.data(), header.size());
    writer.Append(payload.data(), payload.size());
    zip.EndStored();
    zip.Finish();
    writer.Flush();
    out->Commit();
  }
  NpzFormat format(-1);
  const WrittenFile scanned = format.Scan("dlio.npz", storage());
  ASSERT_EQ(scanned.num_samples, 3u);
  ASSERT_EQ(scanned.samples.size(), 3u);
  EXPECT_EQ(scanned.samples[0].offset, 30u + 5 + 20 + header.size());
  EXPECT_EQ(scanned.samples[2].offset, scanned.samples[0].offset + 40);
  EXPECT_EQ(scanned.samples[2].length, 20u);
}

TEST_F(NpzTest, ZipWriterOutputIsReadByLibzip) {
  {
    auto out = storage().Create("z.zip");
    BlockWriter writer(*out, 4096);  // small blocks: deflate output spans many of them
    ZipWriter zip(writer);
    std::vector<unsigned char> data(100000);
    FillRandom(1, 0, data.data(), data.size());
    zip.BeginStored("stored.bin", data.size(), Crc32(data.data(), data.size()));
    writer.Append(data.data(), data.size());
    zip.EndStored();
    zip.BeginDeflated("deflated.bin", 9);
    const std::string text(300000, 'a');
    zip.Deflate(text.data(), text.size());
    zip.EndDeflated();
    zip.Finish();
    writer.Flush();
    out->Commit();
  }
  int error = 0;
  zip_t* archive = zip_open(Full("z.zip").c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &error);
  ASSERT_NE(archive, nullptr) << "libzip error " << error;
  ASSERT_EQ(zip_get_num_entries(archive, 0), 2);
  zip_stat_t st;
  ASSERT_EQ(zip_stat(archive, "deflated.bin", 0, &st), 0);
  EXPECT_EQ(st.size, 300000u);
  EXPECT_LT(st.comp_size, 10000u);
  std::vector<char> back(300000);
  zip_file_t* f = zip_fopen(archive, "deflated.bin", 0);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(zip_fread(f, back.data(), back.size()), 300000);
  EXPECT_EQ(std::string(back.begin(), back.end()), std::string(300000, 'a'));
  zip_fclose(f);
  zip_discard(archive);
}

TEST_F(NpzTest, ZipWriterRefusesAShortStoredMember) {
  auto out = storage().Create("z.zip");
  BlockWriter writer(*out);
  ZipWriter zip(writer);
  zip.BeginStored("x", 10, 0);
  writer.Append("abc", 3);
  EXPECT_THROW(zip.EndStored(), RuntimeError);
}

}  // namespace
}  // namespace trainbench::formats
