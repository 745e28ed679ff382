// The layouts that both DLIO 2.0.0 (PyPI's release, requirements.txt's pin) and upstream
// DLIO read (docs/formats.md, "Which DLIO"): hdf5's `records` link beside records_0, and
// csv's pandas header line, with the files of each version and older trainbench's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/workload.h"
#include "dataset/manifest.h"
#include "format_test_support.h"
#include "formats/csv.h"
#include "formats/hdf5/hdf5.h"
#include "formats/hdf5/hdf5_handle.h"

namespace trainbench::formats {
namespace {

using DlioVersionsTest = FormatTest;

// Whether `a` and `b` are hard links to one object of the file at `path`.
bool HardLinksToOneObject(const std::string& path, const char* a, const char* b) {
  Hdf5Lock lock;
  const Hdf5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid() || H5Lexists(file.get(), a, H5P_DEFAULT) <= 0 ||
      H5Lexists(file.get(), b, H5P_DEFAULT) <= 0)
    return false;
#if H5_VERSION_GE(1, 12, 0)
  H5L_info2_t info_a, info_b;
  int cmp = 1;
  return H5Lget_info2(file.get(), a, &info_a, H5P_DEFAULT) >= 0 &&
         H5Lget_info2(file.get(), b, &info_b, H5P_DEFAULT) >= 0 && info_a.type == H5L_TYPE_HARD &&
         info_b.type == H5L_TYPE_HARD &&
         H5Otoken_cmp(file.get(), &info_a.u.token, &info_b.u.token, &cmp) >= 0 && cmp == 0;
#else
  H5L_info_t info_a, info_b;
  return H5Lget_info(file.get(), a, &info_a, H5P_DEFAULT) >= 0 &&
         H5Lget_info(file.get(), b, &info_b, H5P_DEFAULT) >= 0 && info_a.type == H5L_TYPE_HARD &&
         info_b.type == H5L_TYPE_HARD && info_a.u.address == info_b.u.address;
#endif
}

uint64_t RootLinks(const std::string& path) {
  Hdf5Lock lock;
  const Hdf5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  H5G_info_t info{};
  if (!file.valid() || H5Gget_info(file.get(), &info) < 0) return 0;
  return info.nlinks;
}

// A file of one uint8 (rows, 4, 4) dataset named `name`, as DLIO 2.0.0 (records) or a
// trainbench before the link (records_0) wrote it.
void WriteOneName(const std::string& path, const char* name, hsize_t rows) {
  Hdf5Lock lock;
  const Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  ASSERT_TRUE(file.valid());
  const hsize_t dims[3] = {rows, 4, 4};
  const Hdf5Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose);
  const Hdf5Handle records(H5Dcreate2(file.get(), name, H5T_NATIVE_UINT8, space.get(), H5P_DEFAULT,
                                      H5P_DEFAULT, H5P_DEFAULT),
                           H5Dclose);
  const std::vector<unsigned char> data(rows * 16, 7);
  ASSERT_GE(H5Dwrite(records.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
            0);
}

// Every layout datagen writes has `records` as a second name of records_0, and Scan, what
// a run uses, counts the file's samples once.
TEST_F(DlioVersionsTest, Hdf5RecordsIsRecords0ByASecondLinkAndOneSetOfSamples) {
  for (const Hdf5Layout layout : {Hdf5Layout{}, Hdf5Layout{true, 7000, -1},
                                  Hdf5Layout{true, 1024, -1}, Hdf5Layout{false, 0, 4}}) {
    Hdf5Format format(layout);
    const FileSpec spec{"a.hdf5", 3, {2916, 2916, 2916, 2916}};
    const WrittenFile written = format.Write(spec, storage());
    EXPECT_TRUE(HardLinksToOneObject(Full(spec.path), "records_0", "records"));
    EXPECT_EQ(RootLinks(Full(spec.path)), 3u);  // records_0, records, labels
    EXPECT_EQ(VerifyError(format, written, storage()), "");
    const WrittenFile scanned = format.Scan(spec.path, storage());
    EXPECT_EQ(scanned.num_samples, 4u);
    EXPECT_EQ(scanned.samples.size(), 4u);
    if (!written.samples.empty()) ExpectSameExtents(written, scanned);
  }
}

TEST_F(DlioVersionsTest, Hdf5VerifyWantsTheRecordsLink) {
  Hdf5Format format({});
  const WrittenFile written = format.Write({"a.hdf5", 3, {2916, 2916}}, storage());
  {
    Hdf5Lock lock;
    const Hdf5Handle file(H5Fopen(Full("a.hdf5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    ASSERT_GE(H5Ldelete(file.get(), "records", H5P_DEFAULT), 0);
  }
  WrittenFile unlinked = written;
  unlinked.size_bytes = storage().FileSize("a.hdf5").value_or(0);
  EXPECT_NE(VerifyError(format, unlinked, storage()).find("records is not a hard link"),
            std::string::npos);
  // Files without the link (trainbench's before it, DLIO 2.0.0's own) still scan.
  WriteOneName(Full("old.hdf5"), "records_0", 5);
  WriteOneName(Full("dlio200.hdf5"), "records", 6);
  EXPECT_EQ(format.Scan("old.hdf5", storage()).num_samples, 5u);
  EXPECT_EQ(format.Scan("dlio200.hdf5", storage()).num_samples, 6u);
}

std::string Text(const std::vector<unsigned char>& bytes) { return {bytes.begin(), bytes.end()}; }

// pandas' header line "0,1,...,n-1", then a row per sample; sample 0's extent starts at
// the file's first byte, so that a file's samples cover every byte pandas reads.
TEST_F(DlioVersionsTest, CsvHasPandasHeaderLineReadWithTheFirstSample) {
  CsvFormat format;
  const FileSpec spec{"a.csv", 5, {16, 16, 16}};
  const WrittenFile written = format.Write(spec, storage());
  const std::string text = Text(Bytes(spec.path));
  const std::string header = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n";
  ASSERT_EQ(text.substr(0, header.size()), header);
  ASSERT_EQ(written.samples.size(), 3u);
  EXPECT_EQ(written.samples[0].offset, 0u);
  const uint64_t row1 = text.find('\n', header.size()) + 1;
  EXPECT_EQ(written.samples[0].length, row1);
  EXPECT_EQ(written.samples[1].offset, row1);
  EXPECT_EQ(written.samples[2].offset + written.samples[2].length, text.size());
  EXPECT_EQ(written.size_bytes, text.size());
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  ExpectSameExtents(written, format.Scan(spec.path, storage()));
  // Without the header DLIO 2.0.0 takes the first row for it: Verify says so.
  const std::string rows = text.substr(header.size());
  Put(spec.path, {rows.begin(), rows.end()});
  WrittenFile headerless = written;
  headerless.size_bytes = rows.size();
  headerless.samples[0].length -= header.size();
  for (size_t i = 1; i < headerless.samples.size(); ++i)
    headerless.samples[i].offset -= header.size();
  EXPECT_NE(VerifyError(format, headerless, storage()).find("header"), std::string::npos);
}

// Scan reads files of every writer: pandas' header line with the index column (DLIO 2.0.0,
// older trainbench), without (datagen), no header (upstream DLIO, trainbench before it).
TEST_F(DlioVersionsTest, CsvScanReadsEveryWritersLayout) {
  struct Case {
    std::string text;
    std::vector<SampleExtent> want;
  };
  const std::vector<Case> cases = {
      {",0,1\n0,5,6\n1,7,8\n", {{0, 11}, {11, 6}}},   // DLIO 2.0.0's to_csv()
      {"0,1,2\n5,6,7\n8,9,1\n", {{0, 12}, {12, 6}}},  // datagen's to_csv(index=False)
      {"5,6,7\n8,9,1\n", {{0, 6}, {6, 6}}},           // upstream's header=False
      {"0,2,1\n8,9,1\n", {{0, 6}, {6, 6}}},           // a first row, not column names
  };
  for (const auto& c : cases) {
    Put("x.csv", {c.text.begin(), c.text.end()});
    const WrittenFile scanned = CsvFormat().Scan("x.csv", storage());
    ASSERT_EQ(scanned.num_samples, c.want.size()) << c.text;
    for (size_t i = 0; i < c.want.size(); ++i) {
      EXPECT_EQ(scanned.samples[i].offset, c.want[i].offset) << c.text << " sample " << i;
      EXPECT_EQ(scanned.samples[i].length, c.want[i].length) << c.text << " sample " << i;
    }
  }
}

// The link and the header are part of the layout: datagen does not add files of this
// layout to a dataset written before them (whose manifest lacks the keys; run, which
// skips keys a manifest lacks, still reads it).
TEST(DlioVersionsKey, GenerationKeyNamesTheLinkAndTheHeader) {
  config::WorkloadConfig c;
  c.dataset.format = "hdf5";
  EXPECT_EQ(dataset::GenerationKey(c).at("hdf5_records"), "records_0+records");
  c.dataset.format = "csv";
  EXPECT_EQ(dataset::GenerationKey(c).at("csv_header"), "pandas");
  EXPECT_EQ(dataset::GenerationKey(c).at("layout"), "dlio-square");
}

}  // namespace
}  // namespace trainbench::formats
