#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "format_test_support.h"
#include "formats/csv.h"

namespace trainbench::formats {
namespace {

using CsvTest = FormatTest;

// pandas' to_csv(index=False) of DLIO's rows: the header line "0,1,...", no index column,
// a line of side^2 values per sample (the plan's sample size), each value 0..254. Sample
// 0's extent starts at the file's first byte (the header is read with it).
TEST_F(CsvTest, RowsHoldTheSampleSizeInValuesAndRoundTrip) {
  CsvFormat format;
  for (const uint64_t values : {4096, 100, 4, 1}) {
    const FileSpec spec{"train/a.csv", 8, std::vector<uint64_t>(6, values)};
    const WrittenFile written = format.Write(spec, storage());
    ASSERT_EQ(written.samples.size(), 6u);
    const auto bytes = Bytes(spec.path);
    EXPECT_EQ(bytes.size(), written.samples.back().offset + written.samples.back().length);
    EXPECT_EQ(written.samples[0].offset, 0u);
    const auto header =
        static_cast<uint64_t>(std::find(bytes.begin(), bytes.end(), '\n') - bytes.begin()) + 1;
    for (size_t i = 0; i < 6; ++i) {
      const auto& e = written.samples[i];
      const uint64_t start = i == 0 ? header : e.offset;
      const std::string line(bytes.begin() + static_cast<std::ptrdiff_t>(start),
                             bytes.begin() + static_cast<std::ptrdiff_t>(e.offset + e.length));
      EXPECT_EQ(line.back(), '\n');
      EXPECT_NE(line.front(), ',');
      EXPECT_EQ(std::count(line.begin(), line.end(), ',') + 1, values) << "row " << i;
      // Between 1 and 3 digits and a comma a value.
      EXPECT_GE(line.size(), 2 * values);
      EXPECT_LE(line.size(), 4 * values);
    }
    EXPECT_EQ(VerifyError(format, written, storage()), "");
    ExpectSameExtents(written, format.Scan(spec.path, storage()));
  }
}

TEST_F(CsvTest, SizesAreOnePerFile) {
  CsvFormat format;
  EXPECT_THROW(format.Write({"b.csv", 1, {300, 400}}, storage()), RuntimeError);
}

// An older trainbench file (pandas' default to_csv: a ",0,1,..." header and an index
// column, as DLIO 2.0.0 writes): the header is not a sample, but pandas reads it with the
// rows, so it is read with the first.
TEST_F(CsvTest, ScanReadsTheHeaderOfOlderFilesWithTheFirstRow) {
  Put("old.csv", std::vector<unsigned char>{',', '0', ',', '1', '\n', '0', ',', '5', ',', '6', '\n',
                                            '1', ',', '7', '\n'});
  const WrittenFile scanned = CsvFormat().Scan("old.csv", storage());
  ASSERT_EQ(scanned.num_samples, 2u);
  EXPECT_EQ(scanned.samples[0].offset, 0u);
  EXPECT_EQ(scanned.samples[0].length, 11u);
  EXPECT_EQ(scanned.samples[1].offset, 11u);
  EXPECT_EQ(scanned.samples[1].length, 4u);
}

TEST_F(CsvTest, SameSeedSameBytes) {
  CsvFormat format;
  format.Write({"a.csv", 2, {400, 400}}, storage());
  format.Write({"b.csv", 2, {400, 400}}, storage());
  format.Write({"c.csv", 3, {400, 400}}, storage());
  EXPECT_EQ(Bytes("a.csv"), Bytes("b.csv"));
  EXPECT_NE(Bytes("a.csv"), Bytes("c.csv"));
}

TEST_F(CsvTest, VerifyNamesTheBadByte) {
  CsvFormat format;
  const WrittenFile written = format.Write({"a.csv", 2, {400, 400}}, storage());
  auto bytes = Bytes("a.csv");
  const uint64_t bad = written.samples[1].offset + 10;
  bytes[bad] = 'x';
  Put("a.csv", bytes);
  const std::string error = VerifyError(format, written, storage());
  EXPECT_NE(error.find("offset"), std::string::npos);
  EXPECT_NE(error, "");
  // A value out of DLIO's range 0..254.
  format.Write({"a.csv", 2, {400, 400}}, storage());
  bytes = Bytes("a.csv");
  // The first value of row 0, past the header line.
  const auto value =
      static_cast<uint64_t>(std::find(bytes.begin(), bytes.end(), '\n') - bytes.begin()) + 1;
  bytes[value] = '9';
  bytes[value + 1] = '9';
  bytes[value + 2] = '9';
  if (bytes[value + 3] == ',') {  // only when that value has three digits is it still one field
    Put("a.csv", bytes);
    EXPECT_NE(VerifyError(format, written, storage()).find(std::to_string(value)),
              std::string::npos);
  }
  format.Write({"a.csv", 2, {400, 400}}, storage());
  Truncate("a.csv", written.size_bytes - 1);
  WrittenFile shorter = written;
  shorter.size_bytes -= 1;
  EXPECT_NE(VerifyError(format, shorter, storage()).find(std::to_string(written.size_bytes - 1)),
            std::string::npos);
}

}  // namespace
}  // namespace trainbench::formats
