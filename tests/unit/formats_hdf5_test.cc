#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "common/random.h"
#include "format_test_support.h"
#include "formats/hdf5/hdf5.h"
#include "formats/hdf5/hdf5_handle.h"

namespace trainbench::formats {
namespace {

using Hdf5Test = FormatTest;

// Each manifest extent holds its sample's random bytes.
void ExpectExtentsHoldSamples(const std::vector<unsigned char>& bytes, const WrittenFile& written,
                              uint64_t seed) {
  for (uint64_t i = 0; i < written.samples.size(); ++i) {
    const auto& e = written.samples[i];
    std::vector<unsigned char> want(e.length);
    FillRandom(seed, i * e.length, want.data(), want.size());
    ASSERT_LE(e.offset + e.length, bytes.size());
    EXPECT_EQ(std::memcmp(&bytes[e.offset], want.data(), want.size()), 0) << "sample " << i;
  }
}

TEST_F(Hdf5Test, ContiguousRoundTripsWithExactExtents) {
  Hdf5Format format({});
  const FileSpec spec{"train/a.h5", 11, {2916, 2916, 2916, 2916}};
  const WrittenFile written = format.Write(spec, storage());
  ASSERT_EQ(written.samples.size(), 4u);
  EXPECT_EQ(written.samples[1].offset, written.samples[0].offset + 2916);
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  ExpectSameExtents(written, format.Scan(spec.path, storage()));
  ExpectExtentsHoldSamples(Bytes(spec.path), written, spec.seed);
  // DLIO's shape: (num_samples, side, side), as its reader takes records_0[i].
  Hdf5Lock lock;
  const Hdf5Handle file(H5Fopen(Full(spec.path).c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  const Hdf5Handle records(H5Dopen2(file.get(), "records_0", H5P_DEFAULT), H5Dclose);
  const Hdf5Handle space(H5Dget_space(records.get()), H5Sclose);
  ASSERT_EQ(H5Sget_simple_extent_ndims(space.get()), 3);
  hsize_t dims[3] = {0, 0, 0};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  EXPECT_EQ(dims[0], 4u);
  EXPECT_EQ(dims[1], 54u);
  EXPECT_EQ(dims[2], 54u);
}

TEST_F(Hdf5Test, ChunksOfWholeRowsKeepExactExtents) {
  Hdf5Format format({true, 7000, -1});  // two rows per chunk
  const FileSpec spec{"a.h5", 12, {2916, 2916, 2916, 2916, 2916}};
  const WrittenFile written = format.Write(spec, storage());
  ASSERT_EQ(written.samples.size(), 5u);
  EXPECT_EQ(VerifyError(format, written, storage()), "");
  ExpectSameExtents(written, format.Scan(spec.path, storage()));
  ExpectExtentsHoldSamples(Bytes(spec.path), written, spec.seed);
  // A layout other than the config's is an error.
  EXPECT_NE(VerifyError(Hdf5Format({}), written, storage()).find("chunked"), std::string::npos);
}

// Write records no extents (a sample is no one byte range); Scan, what a run uses (libhdf5
// reads the samples), gives each sample its place in the uncompressed dataset.
TEST_F(Hdf5Test, PartialRowChunksAndGzipHaveNoExtentsButScanPlacesSamples) {
  for (const Hdf5Layout layout : {Hdf5Layout{true, 1024, -1}, Hdf5Layout{false, 0, 4}}) {
    Hdf5Format format(layout);
    const WrittenFile written = format.Write({"a.h5", 13, {2916, 2916}}, storage());
    EXPECT_TRUE(written.samples.empty());
    EXPECT_EQ(written.num_samples, 2u);
    EXPECT_EQ(VerifyError(format, written, storage()), "");
    const WrittenFile scanned = format.Scan("a.h5", storage());
    EXPECT_EQ(scanned.num_samples, 2u);
    ASSERT_EQ(scanned.samples.size(), 2u);
    EXPECT_EQ(scanned.samples[0].offset, 0u);
    EXPECT_EQ(scanned.samples[1].offset, 2916u);
    EXPECT_EQ(scanned.samples[1].length, 2916u);
  }
}

TEST_F(Hdf5Test, SameSeedSameBytes) {
  Hdf5Format format({false, 0, 4});
  format.Write({"a.h5", 3, {1936, 1936}}, storage());
  // Past a second boundary: HDF5 would stamp object headers with times if allowed.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  format.Write({"b.h5", 3, {1936, 1936}}, storage());
  format.Write({"c.h5", 4, {1936, 1936}}, storage());
  EXPECT_EQ(Bytes("a.h5"), Bytes("b.h5"));
  EXPECT_NE(Bytes("a.h5"), Bytes("c.h5"));
}

TEST_F(Hdf5Test, VerifyNamesTheDamage) {
  Hdf5Format plain({});
  WrittenFile written = plain.Write({"a.h5", 5, {1936, 1936}}, storage());
  FlipByte("a.h5", 1);  // the superblock signature
  EXPECT_NE(VerifyError(plain, written, storage()).find("offset 0"), std::string::npos);
  written = plain.Write({"a.h5", 5, {1936, 1936}}, storage());
  Truncate("a.h5", written.size_bytes - 100);
  EXPECT_NE(VerifyError(plain, written, storage()).find(std::to_string(written.size_bytes - 100)),
            std::string::npos);

  // A damaged compressed chunk fails to inflate; the error names where the chunk is.
  Hdf5Format gzip({false, 0, 1});
  written = gzip.Write({"b.h5", 5, {19881, 19881}}, storage());
  ASSERT_EQ(VerifyError(gzip, written, storage()), "");
  // Random bytes barely compress: the middle of the file is inside a chunk.
  const uint64_t middle = written.size_bytes / 2;
  auto bytes = Bytes("b.h5");
  for (uint64_t i = middle; i < middle + 64; ++i) bytes[i] = 0xff;
  Put("b.h5", bytes);
  const std::string error = VerifyError(gzip, written, storage());
  EXPECT_NE(error.find("does not read"), std::string::npos) << error;
}

TEST_F(Hdf5Test, VerifyComparesTheDataWithTheSeed) {
  Hdf5Format plain({});
  const WrittenFile written = plain.Write({"a.h5", 5, {1936, 1936}}, storage());
  const uint64_t at = written.samples[1].offset + 7;
  FlipByte("a.h5", at);
  const std::string error = VerifyError(plain, written, storage());
  EXPECT_NE(error.find("offset " + std::to_string(at)), std::string::npos) << error;
  EXPECT_NE(error.find("row 1 of records_0 differs"), std::string::npos) << error;
}

TEST_F(Hdf5Test, RejectsUnequalSampleSizes) {
  Hdf5Format format({});
  EXPECT_THROW(format.Write({"a.h5", 1, {484, 485}}, storage()), RuntimeError);
  EXPECT_FALSE(storage().FileSize("a.h5"));
}

TEST_F(Hdf5Test, ScanReadsDlioFilesWithTheirRecordsName) {
  // DLIO's generator: dataset "records" of shape (num_samples, dim1, dim2), contiguous.
  {
    Hdf5Lock lock;
    const Hdf5Handle file(
        H5Fcreate(Full("dlio.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    ASSERT_TRUE(file.valid());
    const hsize_t dims[3] = {3, 4, 5};
    const Hdf5Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose);
    const Hdf5Handle records(H5Dcreate2(file.get(), "records", H5T_NATIVE_UINT8, space.get(),
                                        H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             H5Dclose);
    std::vector<unsigned char> data(60, 1);
    ASSERT_GE(H5Dwrite(records.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
              0);
  }
  const WrittenFile scanned = Hdf5Format({}).Scan("dlio.h5", storage());
  EXPECT_EQ(scanned.num_samples, 3u);
  ASSERT_EQ(scanned.samples.size(), 3u);
  EXPECT_EQ(scanned.samples[1].offset, scanned.samples[0].offset + 20);
  EXPECT_EQ(scanned.samples[2].length, 20u);
  EXPECT_THROW(Hdf5Format({}).Scan("missing.h5", storage()), RuntimeError);
}

}  // namespace
}  // namespace trainbench::formats
