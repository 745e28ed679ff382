#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "formats/tfrecord/protobuf_wire.h"
#include "formats/tfrecord/tfrecord.h"
#include "formats/tfrecord/tfrecord_index.h"
#include "storage/posix_storage.h"

namespace trainbench::formats {
namespace {
namespace fs = std::filesystem;

class TfrecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tb_tfrecord_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    storage_ = std::make_unique<storage::PosixStorage>(dir_.string());
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Corrupt(const std::string& path, uint64_t offset) {
    std::fstream f(dir_ / path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put('\x5a');
  }

  std::string VerifyError(const WrittenFile& w) {
    try {
      format_.Verify(w, *storage_);
    } catch (const RuntimeError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
  std::unique_ptr<storage::Storage> storage_;
  TfrecordFormat format_{338};  // resnet50's dimension
};

TEST_F(TfrecordTest, WriteVerifyScanAgree) {
  const FileSpec spec{"train/a.tfrecord", 9, {100, 5000, 1, 70000}};
  const WrittenFile w = format_.Write(spec, *storage_);
  EXPECT_EQ(w.num_samples, 4u);
  ASSERT_EQ(w.samples.size(), 4u);
  EXPECT_EQ(w.size_bytes, fs::file_size(dir_ / spec.path));
  EXPECT_EQ(w.samples[0].offset, 0u);
  for (size_t i = 1; i < w.samples.size(); ++i)
    EXPECT_EQ(w.samples[i].offset, w.samples[i - 1].offset + w.samples[i - 1].length);
  // Each record is framing (16 B) + Example (payload + a few dozen bytes of encoding).
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_GT(w.samples[i].length, spec.sample_sizes[i] + 16);
    EXPECT_LT(w.samples[i].length, spec.sample_sizes[i] + 16 + 48);
  }
  EXPECT_EQ(VerifyError(w), "");
  const WrittenFile scanned = format_.Scan(spec.path, *storage_);
  EXPECT_EQ(scanned.size_bytes, w.size_bytes);
  ASSERT_EQ(scanned.samples.size(), w.samples.size());
  for (size_t i = 0; i < w.samples.size(); ++i) {
    EXPECT_EQ(scanned.samples[i].offset, w.samples[i].offset);
    EXPECT_EQ(scanned.samples[i].length, w.samples[i].length);
  }
}

// DLIO's index for DALI: index/<split>/<name>.idx, "offset length" per record.
TEST_F(TfrecordTest, WritesDliosDaliIndexAndVerifyChecksIt) {
  EXPECT_EQ(TfrecordIndexPath("valid/2/img_1_of_8.tfrecord"),
            "index/valid/img_1_of_8.tfrecord.idx");
  const WrittenFile w = format_.Write({"train/a.tfrecord", 9, {100, 300}}, *storage_);
  ASSERT_EQ(w.companions, std::vector<std::string>{"index/train/a.tfrecord.idx"});
  std::ifstream in(dir_ / "index/train/a.tfrecord.idx");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "0 " + std::to_string(w.samples[0].length) + "\n" +
                      std::to_string(w.samples[1].offset) + " " +
                      std::to_string(w.samples[1].length) + "\n");
  EXPECT_EQ(VerifyError(w), "");
  Corrupt("index/train/a.tfrecord.idx", 0);  // "0 ..." becomes "Z ..."
  const std::string e = VerifyError(w);
  EXPECT_NE(e.find("a.tfrecord.idx: bad TFRecord index at offset 0"), std::string::npos) << e;
  fs::remove(dir_ / "index/train/a.tfrecord.idx");
  EXPECT_NE(VerifyError(w).find("missing"), std::string::npos);
}

// DLIO's generator writes its dimension, int(sqrt(record_length)), as every record's `size`,
// whatever the image's length; trainbench wrote the length before, which Verify still takes.
TEST_F(TfrecordTest, SizeFeatureIsDliosDimension) {
  const WrittenFile w = format_.Write({"s.tfrecord", 2, {114244, 100}}, *storage_);
  const auto data = storage::ReadAll(*storage_, "s.tfrecord");
  for (const auto& e : w.samples) {
    ParsedExample example;
    ASSERT_TRUE(ParseExample(&data[e.offset + 12], e.length - 16, &example));
    EXPECT_EQ(example.size_feature, 338);
  }
  EXPECT_EQ(VerifyError(w), "");
  // An older trainbench file: `size` the image's length.
  const WrittenFile old = TfrecordFormat(100).Write({"old.tfrecord", 2, {100, 100}}, *storage_);
  EXPECT_EQ(VerifyError(old), "");
  const WrittenFile other = TfrecordFormat(7).Write({"o.tfrecord", 2, {100}}, *storage_);
  const std::string e = VerifyError(other);
  EXPECT_NE(e.find("size feature 7 is not DLIO's dimension 338"), std::string::npos) << e;
}

TEST_F(TfrecordTest, SameSeedSameBytes) {
  format_.Write({"a.tfrecord", 3, {1000, 2000}}, *storage_);
  format_.Write({"b.tfrecord", 3, {1000, 2000}}, *storage_);
  format_.Write({"c.tfrecord", 4, {1000, 2000}}, *storage_);
  auto read = [&](const char* p) { return storage::ReadAll(*storage_, p); };
  EXPECT_EQ(read("a.tfrecord"), read("b.tfrecord"));
  EXPECT_NE(read("a.tfrecord"), read("c.tfrecord"));
}

TEST_F(TfrecordTest, VerifyNamesTheBadOffset) {
  const WrittenFile w = format_.Write({"x.tfrecord", 1, {100, 100, 100}}, *storage_);
  Corrupt("x.tfrecord", w.samples[1].offset + 60);  // inside record 1's payload
  const std::string e = VerifyError(w);
  EXPECT_NE(e.find("x.tfrecord"), std::string::npos) << e;
  EXPECT_NE(e.find("offset " + std::to_string(w.samples[1].offset + 12)), std::string::npos) << e;
  EXPECT_NE(e.find("data CRC mismatch"), std::string::npos) << e;
}

TEST_F(TfrecordTest, VerifyCatchesTruncationAndHeaderDamage) {
  WrittenFile w = format_.Write({"t.tfrecord", 1, {100, 100}}, *storage_);
  fs::resize_file(dir_ / "t.tfrecord", w.size_bytes - 3);
  EXPECT_NE(VerifyError(w).find("manifest says"), std::string::npos);
  w = format_.Write({"h.tfrecord", 1, {100, 100}}, *storage_);
  Corrupt("h.tfrecord", w.samples[1].offset + 2);
  const std::string e = VerifyError(w);
  EXPECT_NE(e.find("length CRC mismatch"), std::string::npos) << e;
  EXPECT_THROW(format_.Scan("h.tfrecord", *storage_), RuntimeError);
}

TEST_F(TfrecordTest, UncommittedWriteLeavesNothing) {
  {
    auto writer = storage_->Create("train/never.tfrecord");
    writer->Append("abc", 3);
  }  // destroyed without Commit
  EXPECT_FALSE(storage_->FileSize("train/never.tfrecord").has_value());
  EXPECT_TRUE(storage_->List("train").empty());
}

}  // namespace
}  // namespace trainbench::formats
