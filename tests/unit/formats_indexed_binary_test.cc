#include <gtest/gtest.h>

#include <cstring>

#include "common/random.h"
#include "format_test_support.h"
#include "formats/indexed_binary.h"

namespace trainbench::formats {
namespace {

using IndexedBinaryTest = FormatTest;

std::vector<uint64_t> Words(const std::vector<unsigned char>& bytes) {
  std::vector<uint64_t> words(bytes.size() / 8);
  std::memcpy(words.data(), bytes.data(), words.size() * 8);
  return words;
}

TEST_F(IndexedBinaryTest, WritesDataAndDlioNamedIndexes) {
  IndexedBinaryFormat format(IndexedBinaryDescription());
  const FileSpec spec{"train/img_0_of_2.bin", 6, {100, 250, 1, 4000}};
  const WrittenFile written = format.Write(spec, storage());
  EXPECT_EQ(written.companions, (std::vector<std::string>{"train/img_0_of_2.bin.off.idx",
                                                          "train/img_0_of_2.bin.sz.idx"}));
  EXPECT_EQ(Words(Bytes(written.companions[0])), (std::vector<uint64_t>{0, 100, 350, 351}));
  EXPECT_EQ(Words(Bytes(written.companions[1])), spec.sample_sizes);
  EXPECT_EQ(written.size_bytes, 4351u);
  const auto data = Bytes(spec.path);
  ASSERT_EQ(data.size(), 4351u);
  std::vector<unsigned char> want(250);
  FillRandom(spec.seed, 100, want.data(), want.size());
  EXPECT_EQ(std::memcmp(&data[100], want.data(), want.size()), 0);
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  const WrittenFile scanned = format.Scan(spec.path, storage());
  ExpectSameExtents(written, scanned);
  EXPECT_EQ(scanned.companions, written.companions);
}

TEST_F(IndexedBinaryTest, SameSeedSameBytes) {
  IndexedBinaryFormat format(MmapIndexedBinaryDescription());
  EXPECT_EQ(format.description().name, "mmap_indexed_binary");
  format.Write({"a.bin", 4, {300, 200}}, storage());
  format.Write({"b.bin", 4, {300, 200}}, storage());
  format.Write({"c.bin", 5, {300, 200}}, storage());
  EXPECT_EQ(Bytes("a.bin"), Bytes("b.bin"));
  EXPECT_EQ(Bytes("a.bin.off.idx"), Bytes("b.bin.off.idx"));
  EXPECT_NE(Bytes("a.bin"), Bytes("c.bin"));
}

// A manifest whose sample sizes differ from the indexes' is named at the size entry.
TEST_F(IndexedBinaryTest, VerifyNamesASampleTheManifestSizesOtherwise) {
  IndexedBinaryFormat format(IndexedBinaryDescription());
  WrittenFile written = format.Write({"a.bin", 4, {300, 200, 100}}, storage());
  written.samples[1].length = 201;
  const std::string error = VerifyError(format, written, storage());
  EXPECT_NE(error.find("a.bin.sz.idx: bad indexed binary file at offset 8: sample 1 is 200 "
                       "bytes at 300, the manifest says 201 bytes at 300"),
            std::string::npos)
      << error;
}

TEST_F(IndexedBinaryTest, VerifyNamesTheBadIndexEntry) {
  IndexedBinaryFormat format(IndexedBinaryDescription());
  const WrittenFile written = format.Write({"a.bin", 4, {300, 200, 100}}, storage());
  FlipByte("a.bin.off.idx", 16);  // sample 2's offset
  const std::string error = VerifyError(format, written, storage());
  EXPECT_NE(error.find("a.bin.off.idx"), std::string::npos) << error;
  EXPECT_NE(error.find("offset 16"), std::string::npos) << error;

  format.Write({"a.bin", 4, {300, 200, 100}}, storage());
  Truncate("a.bin.sz.idx", 20);
  EXPECT_NE(VerifyError(format, written, storage()).find("offset 16"), std::string::npos);

  format.Write({"a.bin", 4, {300, 200, 100}}, storage());
  Truncate("a.bin", 599);
  EXPECT_NE(VerifyError(format, written, storage()).find("599"), std::string::npos);

  format.Write({"a.bin", 4, {300, 200, 100}}, storage());
  storage().Remove("a.bin.sz.idx");
  EXPECT_NE(VerifyError(format, written, storage()).find("missing"), std::string::npos);
}

}  // namespace
}  // namespace trainbench::formats
