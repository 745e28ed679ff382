// The manifest's file records (read units survive the round trip) and the generation key
// (the Parquet settings that change a file's bytes are in it; what a run reads is not).
#include "dataset/manifest.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "storage/memory_storage.h"
#include "storage/object_streambuf.h"

namespace trainbench::dataset {
namespace {

TEST(Manifest, ReadUnitsRoundTrip) {
  formats::WrittenFile f;
  f.path = "train/a.parquet";
  f.size_bytes = 5000;
  f.num_samples = 7;
  f.units = {{0, 4, {{4, 100}, {104, 900}, {1004, 50}}}, {4, 3, {{1054, 80}, {1134, 700}}}};
  const auto back = FileFromJson(ToJson(f));
  ASSERT_EQ(back.units.size(), 2u);
  EXPECT_EQ(back.units[1].first_sample, 4u);
  EXPECT_EQ(back.units[1].num_samples, 3u);
  ASSERT_EQ(back.units[0].extents.size(), 3u);
  EXPECT_EQ(back.units[0].extents[1].offset, 104u);
  EXPECT_EQ(back.units[0].extents[1].length, 900u);
  EXPECT_EQ(back.units[1].Bytes(), 780u);
  EXPECT_TRUE(back.samples.empty());
  // Units that do not add up to the file's samples are a damaged record.
  auto bad = ToJson(f);
  bad["num_samples"] = 8;
  EXPECT_THROW(FileFromJson(bad), std::exception);
}

// csv and indexed_binary datasets of the first layout (record_length_bytes a sample, not
// DLIO's side^2) are other settings: datagen does not mix them with new files.
// A manifest of several 1 MiB chunks is streamed: the head comes once, before the first
// file, and every file arrives in order; a manifest cut short is damaged, not a short list.
TEST(Manifest, IsReadAChunkAtATimeHeadFirst) {
  storage::MemoryStorage storage;
  Manifest m;
  m.workload = "retinanet_b200";
  m.key = {{"format", "jpeg"}};
  constexpr size_t kFiles = 40000;  // ~80 bytes a line: about 3 chunks
  for (size_t i = 0; i < kFiles; ++i) {
    formats::WrittenFile f;
    f.path = "train/img_" + std::to_string(i) + ".jpeg";
    f.size_bytes = 2600 + i;
    f.num_samples = 1;
    f.samples = {{0, f.size_bytes}};
    m.files.push_back(std::move(f));
  }
  WriteManifest(m, storage);
  ASSERT_GT(*storage.FileSize(kManifestName), 2u * storage::ObjectStreambuf::kChunkBytes);
  size_t heads = 0, files = 0;
  bool in_order = true;
  const auto head = ReadManifestFiles(
      storage,
      [&](const ManifestHead& h) {
        ++heads;
        EXPECT_EQ(files, 0u);
        EXPECT_EQ(h.workload, "retinanet_b200");
        EXPECT_EQ(h.num_files, kFiles);
        EXPECT_EQ(h.key, m.key);
      },
      [&](formats::WrittenFile&& f) {
        in_order = in_order && f.size_bytes == 2600 + files;
        ++files;
      });
  ASSERT_TRUE(head.has_value());
  EXPECT_EQ(heads, 1u);
  EXPECT_EQ(files, kFiles);
  EXPECT_TRUE(in_order);
  // Cut in its middle: the reader says it is damaged.
  const auto bytes = storage::ReadAll(storage, kManifestName);
  auto out = storage.Create(kManifestName);
  out->Append(bytes.data(), bytes.size() / 2);
  out->Commit();
  EXPECT_THROW(ReadManifestFiles(
                   storage, [](const ManifestHead&) {}, [](formats::WrittenFile&&) {}),
               RuntimeError);
  storage.Remove(kManifestName);
  EXPECT_FALSE(ReadManifestFiles(
                   storage, [](const ManifestHead&) {}, [](formats::WrittenFile&&) {})
                   .has_value());
}

TEST(Manifest, GenerationKeyTellsSquareSampleLayoutsApart) {
  config::WorkloadConfig c;
  c.dataset.format = "npz";
  EXPECT_EQ(GenerationKey(c).at("layout"), "dlio");
  for (const char* format : {"csv", "indexed_binary", "mmap_indexed_binary"}) {
    c.dataset.format = format;
    EXPECT_EQ(GenerationKey(c).at("layout"), "dlio-square") << format;
  }
}

TEST(Manifest, GenerationKeyHasTheParquetSettingsThatShapeTheBytes) {
  config::WorkloadConfig c;
  c.dataset.format = "tfrecord";
  EXPECT_FALSE(GenerationKey(c).contains("parquet_columns"));
  c.dataset.format = "parquet";
  c.dataset.parquet.row_group_size = 256;
  c.dataset.parquet.columns = {{"label", "float32", 1, true}, {"x", "float32", 13, true}};
  const auto key = GenerationKey(c);
  EXPECT_EQ(key.at("parquet_columns"), "label:float32:1,x:float32:13");
  EXPECT_EQ(key.at("parquet_row_group_size"), 256);
  auto unread = c;
  unread.dataset.parquet.columns[1].read = false;  // what a run reads, not what is written
  unread.dataset.parquet.read_mode = "row_group";
  EXPECT_EQ(GenerationKey(unread), key);
  auto wider = c;
  wider.dataset.parquet.columns[1].size = 26;
  EXPECT_NE(GenerationKey(wider), key);
  auto groups = c;
  groups.dataset.parquet.row_group_size = 512;
  EXPECT_NE(GenerationKey(groups), key);
}

}  // namespace
}  // namespace trainbench::dataset
