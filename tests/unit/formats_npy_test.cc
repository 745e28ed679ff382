#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include "common/random.h"
#include "format_test_support.h"
#include "formats/numpy/npy.h"
#include "formats/numpy/npy_header.h"

namespace trainbench::formats {
namespace {

using NpyTest = FormatTest;

TEST(NpyHeaderTest, MatchesNumpyLayout) {
  const std::string header = EncodeNpyHeader("|u1", {3, 100000});
  EXPECT_EQ(header.size() % 64, 0u);
  EXPECT_EQ(header.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(header.back(), '\n');
  EXPECT_NE(header.find("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 100000), }"),
            std::string::npos);
  EXPECT_NE(EncodeNpyHeader("<i8", {5}).find("'shape': (5,)"), std::string::npos);
}

TEST(NpyHeaderTest, ParsesWhatItEncodesAndRejectsDamage) {
  const std::string text = EncodeNpyHeader("<i8", {7, 2, 9});
  const auto* data = reinterpret_cast<const unsigned char*>(text.data());
  NpyHeader header;
  size_t needed = 0;
  ASSERT_EQ(ParseNpyHeader(data, text.size(), &header, &needed), "");
  EXPECT_EQ(header.descr, "<i8");
  EXPECT_EQ(header.shape, (std::vector<uint64_t>{7, 2, 9}));
  EXPECT_EQ(header.header_bytes, text.size());
  EXPECT_EQ(NpyItemBytes(header.descr), 8u);
  EXPECT_NE(ParseNpyHeader(data, 20, &header, &needed), "");
  EXPECT_EQ(needed, text.size());
  std::string bad = text;
  bad[1] = 'X';
  EXPECT_NE(ParseNpyHeader(reinterpret_cast<const unsigned char*>(bad.data()), bad.size(), &header,
                           &needed),
            "");
}

TEST_F(NpyTest, RoundTripsAndScanFindsTheSameExtents) {
  NpyFormat format;
  const FileSpec spec{"train/a.npy", 42, {1024, 1024, 1024, 1024}};
  const WrittenFile written = format.Write(spec, storage());
  ASSERT_EQ(written.samples.size(), 4u);
  EXPECT_EQ(written.samples[0].offset % 64, 0u);
  // DLIO's shape, samples on the last axis (its reader takes x[..., i]).
  const auto bytes = Bytes(spec.path);
  EXPECT_NE(std::string(bytes.begin(), bytes.begin() + 128).find("'shape': (32, 32, 4)"),
            std::string::npos);
  // Each sample reads its size as one contiguous quarter of the array.
  EXPECT_EQ(written.samples[1].offset, written.samples[0].offset + 1024);
  EXPECT_EQ(written.samples[3].length, 1024u);
  EXPECT_EQ(written.size_bytes, written.samples[0].offset + 4096);
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  ExpectSameExtents(written, format.Scan(spec.path, storage()));
  // Sample 2's bytes are the random stream from byte 2048 on.
  std::vector<unsigned char> want(1024);
  FillRandom(spec.seed, 2048, want.data(), want.size());
  EXPECT_EQ(std::memcmp(&bytes[written.samples[2].offset], want.data(), 1024), 0);
}

TEST_F(NpyTest, SameSeedSameBytes) {
  NpyFormat format;
  format.Write({"a.npy", 7, {324, 324}}, storage());
  format.Write({"b.npy", 7, {324, 324}}, storage());
  format.Write({"c.npy", 8, {324, 324}}, storage());
  EXPECT_EQ(Bytes("a.npy"), Bytes("b.npy"));
  EXPECT_NE(Bytes("a.npy"), Bytes("c.npy"));
}

TEST_F(NpyTest, VerifyNamesTheDamage) {
  NpyFormat format;
  const WrittenFile written = format.Write({"a.npy", 1, {484, 484}}, storage());
  FlipByte("a.npy", 0);
  EXPECT_NE(VerifyError(format, written, storage()).find("offset 0"), std::string::npos);
  format.Write({"a.npy", 1, {484, 484}}, storage());
  Truncate("a.npy", written.size_bytes - 10);
  EXPECT_NE(VerifyError(format, written, storage()).find(std::to_string(written.size_bytes - 10)),
            std::string::npos);
  // A header that promises another shape, with the file size unchanged.
  format.Write({"a.npy", 1, {484, 484}}, storage());
  auto bytes = Bytes("a.npy");
  const std::string header(bytes.begin(), bytes.begin() + written.samples[0].offset);
  const size_t at = header.find("(22, 22, 2)");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 9] = '3';
  Put("a.npy", bytes);
  EXPECT_NE(VerifyError(format, written, storage()), "");
}

// A manifest that puts a sample elsewhere than the file does is named at the sample, with
// both places (CheckSampleExtents, the wording every format's Verify shares).
TEST_F(NpyTest, VerifyNamesASampleTheManifestPutsElsewhere) {
  NpyFormat format;
  WrittenFile written = format.Write({"a.npy", 1, {484, 484}}, storage());
  const SampleExtent file = written.samples[1];
  written.samples[1].offset += 4;
  const std::string error = VerifyError(format, written, storage());
  EXPECT_NE(error.find(fmt::format("a.npy: bad npy file at offset {}: sample 1 is 484 bytes at "
                                   "{}, the manifest says 484 bytes at {}",
                                   file.offset, file.offset, file.offset + 4)),
            std::string::npos)
      << error;
}

TEST_F(NpyTest, RejectsUnequalSampleSizes) {
  NpyFormat format;
  EXPECT_THROW(format.Write({"a.npy", 1, {484, 485}}, storage()), RuntimeError);
  EXPECT_FALSE(storage().FileSize("a.npy"));
  // DLIO's samples are side x side; the plan rounds sizes down to a square.
  EXPECT_THROW(format.Write({"a.npy", 1, {500, 500}}, storage()), RuntimeError);
  EXPECT_FALSE(storage().FileSize("a.npy"));
}

}  // namespace
}  // namespace trainbench::formats
