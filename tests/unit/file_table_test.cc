// The run's compact file table: what it keeps of each file, what it gives back, and what it
// costs a file (the start-up goal of docs/performance.md: under 100 bytes of state a file).
#include "dataset/file_table.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "storage/object_names.h"

namespace trainbench::dataset {
namespace {

formats::WrittenFile Image(uint64_t i, uint64_t size) {
  formats::WrittenFile f;
  f.path = fmt::format("train/img_{:06}_of_100000.jpeg", i);
  f.size_bytes = size;
  f.num_samples = 1;
  f.samples = {{0, size}};
  return f;
}

TEST(FileTable, AnImageDatasetCostsUnder24BytesAFileBesidesItsNames) {
  constexpr size_t kFiles = 10000;
  FileTable table;
  table.Reserve(kFiles, kFiles * 31);
  for (size_t i = 0; i < kFiles; ++i) table.Add(Image(i, 2600 + i));
  ASSERT_EQ(table.size(), kFiles);
  size_t name_chars = 0;
  for (size_t i = 0; i < kFiles; ++i) name_chars += table.Path(i).size();
  const double per_file = static_cast<double>(table.HeapBytes() - name_chars) / kFiles;
  EXPECT_LE(per_file, 24.0) << "bytes a file besides the name's characters";
  // Whole-file samples are not stored, and come back as the whole file.
  EXPECT_TRUE(table.Extents(7).empty());
  EXPECT_EQ(table.ExtentOf(7, 0).offset, 0u);
  EXPECT_EQ(table.ExtentOf(7, 0).length, 2607u);
  EXPECT_EQ(table.Path(7), "train/img_000007_of_100000.jpeg");
  const formats::WrittenFile back = table.File(7);
  ASSERT_EQ(back.samples.size(), 1u);
  EXPECT_EQ(back.samples[0].length, 2607u);
  EXPECT_EQ(table.Bytes(0, 2), 2600u + 2601u);
}

TEST(FileTable, KeepsExtentsUnitsAndEqualSharesPerFile) {
  FileTable table;
  formats::WrittenFile records;  // a TFRecord file: an extent a sample
  records.path = "train/a.tfrecord";
  records.size_bytes = 1000;
  records.num_samples = 3;
  records.samples = {{0, 100}, {100, 300}, {400, 600}};
  formats::WrittenFile compressed;  // no extents: equal shares of the file
  compressed.path = "train/b.npz";
  compressed.size_bytes = 1001;
  compressed.num_samples = 2;
  compressed.extents_are_bytes = false;
  formats::WrittenFile parquet;  // read a row group at a time
  parquet.path = "train/c.parquet";
  parquet.size_bytes = 5000;
  parquet.num_samples = 30;
  parquet.units = {{0, 20, {{4, 100}, {104, 50}}}, {20, 10, {{154, 70}}}};
  table.Add(Image(0, 10));  // before any file with extents
  table.Add(records);
  table.Add(compressed);
  table.Add(parquet);
  EXPECT_TRUE(table.Extents(0).empty());
  ASSERT_EQ(table.Extents(1).size(), 3u);
  EXPECT_EQ(table.ExtentOf(1, 2).offset, 400u);
  EXPECT_EQ(table.ExtentOf(2, 0).length, 500u);
  EXPECT_EQ(table.ExtentOf(2, 1).offset, 500u);
  EXPECT_EQ(table.ExtentOf(2, 1).length, 501u);
  EXPECT_FALSE(table.ExtentsAreBytes(2));
  EXPECT_TRUE(table.ExtentsAreBytes(1));
  ASSERT_EQ(table.Units(3).size(), 2u);
  EXPECT_EQ(table.Units(3)[1].first_sample, 20u);
  EXPECT_TRUE(table.Units(1).empty());
  EXPECT_EQ(table.SampleCounts(1, 4)[2], 30u);
  table.Truncate(2);
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table.Names()->size(), 2u);
  EXPECT_EQ(table.Extents(1).size(), 3u);
  table.Add(compressed);
  EXPECT_EQ(table.Path(2), "train/b.npz");
  EXPECT_TRUE(table.Extents(2).empty());
}

TEST(FileTable, TheIndexFindsEveryNameAndNothingElse) {
  FileTable table;
  for (size_t i = 0; i < 1000; ++i) table.Add(Image(i, 1));
  table.Add(Image(5, 2));  // a second file of one name: the first is found
  const FileNameIndex index(table);
  for (size_t i = 0; i < 1000; ++i) EXPECT_EQ(index.Find(table.Path(i)), i);
  EXPECT_EQ(index.Find("train/img_001000_of_100000.jpeg"), FileNameIndex::kNone);
  EXPECT_EQ(index.Find(""), FileNameIndex::kNone);
}

TEST(ObjectNames, JoinsBehindAPrefixAndTruncates) {
  storage::ObjectNames names({"a/b", "", "c"});
  EXPECT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0], "a/b");
  EXPECT_EQ(names[1], "");
  EXPECT_EQ(names.Joined(0, "/data"), "/data/a/b");
  EXPECT_EQ(names.Joined(2, ""), "c");
  names.Truncate(1);
  names.Add("d");
  EXPECT_EQ(names[1], "d");
}

}  // namespace
}  // namespace trainbench::dataset
