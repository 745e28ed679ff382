#include <gtest/gtest.h>

#include <string>

#include "format_test_support.h"
#include "formats/csv.h"

namespace trainbench::formats {
namespace {

using CsvTest = FormatTest;

TEST_F(CsvTest, RowsAreTheirSampleSizeAndRoundTrip) {
  CsvFormat format;
  // Sizes from large to the smallest that still fit an index and one value.
  const FileSpec spec{"train/a.csv", 8, {5000, 777, 9, 10, 11, 12, 13, 4, 5, 4000}};
  const WrittenFile written = format.Write(spec, storage());
  ASSERT_EQ(written.samples.size(), spec.sample_sizes.size());
  const auto bytes = Bytes(spec.path);
  for (size_t i = 0; i < spec.sample_sizes.size(); ++i) {
    EXPECT_EQ(written.samples[i].length, spec.sample_sizes[i]) << "row " << i;
    const auto& e = written.samples[i];
    const std::string line(bytes.begin() + static_cast<std::ptrdiff_t>(e.offset),
                           bytes.begin() + static_cast<std::ptrdiff_t>(e.offset + e.length));
    EXPECT_EQ(line.rfind(std::to_string(i) + ",", 0), 0u) << line;
    EXPECT_EQ(line.back(), '\n');
  }
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  ExpectSameExtents(written, format.Scan(spec.path, storage()));
}

TEST_F(CsvTest, TinySamplesStillMakeRows) {
  CsvFormat format;
  const WrittenFile written = format.Write({"a.csv", 1, {1, 3}}, storage());
  EXPECT_EQ(written.samples[0].length, 2u);  // "0\n": an index and nothing else
  EXPECT_EQ(written.samples[1].length, 2u);  // "1,v\n" would be 4
  EXPECT_EQ(VerifyError(format, written, storage()), "");
}

TEST_F(CsvTest, SameSeedSameBytes) {
  CsvFormat format;
  format.Write({"a.csv", 2, {300, 400}}, storage());
  format.Write({"b.csv", 2, {300, 400}}, storage());
  format.Write({"c.csv", 3, {300, 400}}, storage());
  EXPECT_EQ(Bytes("a.csv"), Bytes("b.csv"));
  EXPECT_NE(Bytes("a.csv"), Bytes("c.csv"));
}

TEST_F(CsvTest, VerifyNamesTheBadByte) {
  CsvFormat format;
  const WrittenFile written = format.Write({"a.csv", 2, {300, 400}}, storage());
  auto bytes = Bytes("a.csv");
  const uint64_t bad = written.samples[1].offset + 10;
  bytes[bad] = 'x';
  Put("a.csv", bytes);
  const std::string error = VerifyError(format, written, storage());
  EXPECT_NE(error.find("offset"), std::string::npos);
  EXPECT_NE(error, "");
  // A value out of DLIO's range 0..254.
  format.Write({"a.csv", 2, {300, 400}}, storage());
  bytes = Bytes("a.csv");
  const uint64_t value = written.samples[0].offset + 2;  // after "0,"
  bytes[value] = '9';
  bytes[value + 1] = '9';
  bytes[value + 2] = '9';
  if (bytes[value + 3] == ',') {  // only when that value has three digits is it still one field
    Put("a.csv", bytes);
    EXPECT_NE(VerifyError(format, written, storage()).find(std::to_string(value)),
              std::string::npos);
  }
  format.Write({"a.csv", 2, {300, 400}}, storage());
  Truncate("a.csv", written.size_bytes - 1);
  WrittenFile shorter = written;
  shorter.size_bytes -= 1;
  EXPECT_NE(VerifyError(format, shorter, storage()).find(std::to_string(written.size_bytes - 1)),
            std::string::npos);
}

}  // namespace
}  // namespace trainbench::formats
