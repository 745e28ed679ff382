// Helpers for the format tests: a scratch folder with posix storage over it, and raw
// file access to corrupt what a writer produced. Not thread-safe.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/error.h"
#include "formats/format.h"
#include "storage/posix_storage.h"

namespace trainbench::formats {

class FormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("tb_") + info->test_suite_name() + "_" + info->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    posix_ = std::make_unique<storage::PosixStorage>(dir_.string());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  storage::Storage& storage() { return *posix_; }
  std::string Full(const std::string& path) const { return (dir_ / path).string(); }

  std::vector<unsigned char> Bytes(const std::string& path) const {
    std::ifstream in(Full(path), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void Put(const std::string& path, const std::vector<unsigned char>& bytes) const {
    std::ofstream out(Full(path), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  void FlipByte(const std::string& path, uint64_t offset) const {
    auto bytes = Bytes(path);
    bytes.at(offset) ^= 0x5a;
    Put(path, bytes);
  }
  void Truncate(const std::string& path, uint64_t size) const {
    std::filesystem::resize_file(Full(path), size);
  }
  // Verify's error message, or "" when it passes.
  static std::string VerifyError(const FileFormat& format, const WrittenFile& file,
                                 storage::Storage& storage) {
    try {
      format.Verify(file, storage);
    } catch (const RuntimeError& e) {
      return e.what();
    }
    return "";
  }
  static void ExpectSameExtents(const WrittenFile& a, const WrittenFile& b) {
    EXPECT_EQ(a.size_bytes, b.size_bytes);
    EXPECT_EQ(a.num_samples, b.num_samples);
    ASSERT_EQ(a.samples.size(), b.samples.size());
    for (size_t i = 0; i < a.samples.size(); ++i) {
      EXPECT_EQ(a.samples[i].offset, b.samples[i].offset) << "sample " << i;
      EXPECT_EQ(a.samples[i].length, b.samples[i].length) << "sample " << i;
    }
    ASSERT_EQ(a.units.size(), b.units.size());
    for (size_t u = 0; u < a.units.size(); ++u) {
      EXPECT_EQ(a.units[u].first_sample, b.units[u].first_sample) << "unit " << u;
      EXPECT_EQ(a.units[u].num_samples, b.units[u].num_samples) << "unit " << u;
      ASSERT_EQ(a.units[u].extents.size(), b.units[u].extents.size()) << "unit " << u;
      for (size_t e = 0; e < a.units[u].extents.size(); ++e) {
        EXPECT_EQ(a.units[u].extents[e].offset, b.units[u].extents[e].offset) << "unit " << u;
        EXPECT_EQ(a.units[u].extents[e].length, b.units[u].extents[e].length) << "unit " << u;
      }
    }
  }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<storage::PosixStorage> posix_;
};

}  // namespace trainbench::formats
