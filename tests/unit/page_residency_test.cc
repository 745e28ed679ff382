// PageResidency on a local file: a file evicted from the page cache (posix_fadvise
// DONTNEED) is counted as fetched from storage when read, even where the kernel's read-ahead
// has brought a read's pages in before it comes; read again in a new pass it is the cache's;
// half evicted, half of it is storage's; a range is clipped to the file; a file that cannot be
// opened is unchecked, and says why. Skips where the host cannot evict the file's pages.
#include "storage/page_residency.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace trainbench::storage {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kFileBytes = uint64_t{24} << 20;
constexpr uint64_t kReadBytes = 256 << 10;

class PageResidencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tb-residency-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream out(Path(0), std::ios::binary);
    std::string block(1 << 20, '\0');
    for (uint64_t i = 0; i < kFileBytes / block.size(); ++i) {
      block[0] = static_cast<char>(i);
      out << block;
    }
    out.close();
    std::ofstream(Path(1), std::ios::binary);  // empty
    fd_ = ::open(Path(0).c_str(), O_RDONLY);
    ASSERT_GE(fd_, 0);
    ::fdatasync(fd_);
  }
  void TearDown() override {
    if (fd_ >= 0) ::close(fd_);
    fs::remove_all(dir_);
  }

  std::string Path(uint32_t object) const {
    return (dir_ / (object == 2 ? "missing.bin" : "f" + std::to_string(object) + ".bin")).string();
  }

  // Drops the file's pages; false where some stay (the host will not evict them).
  bool Evict() {
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
    void* map = ::mmap(nullptr, kFileBytes, PROT_READ, MAP_SHARED, fd_, 0);
    if (map == MAP_FAILED) return false;
    std::vector<unsigned char> vec(kFileBytes / 4096);
    const bool ok = ::mincore(map, kFileBytes, vec.data()) == 0;
    ::munmap(map, kFileBytes);
    size_t resident = 0;
    for (unsigned char v : vec) resident += v & 1;
    return ok && resident < vec.size() / 100;
  }

  // Reads [from, to) in kReadBytes pieces, each checked first, as an engine's queue does.
  void ReadChecked(PageResidency& residency, uint64_t from, uint64_t to) {
    std::vector<char> buffer(kReadBytes);
    for (uint64_t offset = from; offset < to; offset += kReadBytes) {
      residency.BeforeRead(0, offset, kReadBytes);
      ASSERT_GT(::pread(fd_, buffer.data(), kReadBytes, static_cast<off_t>(offset)), 0);
    }
  }

  fs::path dir_;
  int fd_ = -1;
};

TEST_F(PageResidencyTest, ColdThenWarmThenHalf) {
  if (!Evict()) GTEST_SKIP() << "this host does not evict the file's pages";
  PageResidency residency(3, [this](uint32_t object) { return Path(object); });
  // Cold, read in order: read-ahead brings each read's pages in before it is checked, yet
  // every byte counts as storage's.
  ReadChecked(residency, 0, kFileBytes);
  ResidencyCounts c = residency.Counts();
  EXPECT_EQ(c.resident_bytes + c.fetched_bytes, kFileBytes);  // page-aligned reads
  EXPECT_GE(c.fetched_bytes, kFileBytes * 98 / 100) << c.resident_bytes << " resident";
  EXPECT_EQ(c.unchecked_bytes, 0u);
  EXPECT_GT(c.check_seconds, 0);

  residency.NewPass();  // warm: everything is the cache's
  ReadChecked(residency, 0, kFileBytes);
  const ResidencyCounts warm = residency.Counts();
  EXPECT_GE(warm.resident_bytes - c.resident_bytes, kFileBytes * 98 / 100);

  // The second half evicted: about half is storage's (read-ahead from the first half may
  // have pulled a little of the second in before its reads, still counted as storage's).
  ::posix_fadvise(fd_, kFileBytes / 2, 0, POSIX_FADV_DONTNEED);
  residency.NewPass();
  ReadChecked(residency, 0, kFileBytes);
  const ResidencyCounts half = residency.Counts();
  const uint64_t fetched = half.fetched_bytes - warm.fetched_bytes;
  EXPECT_GE(fetched, kFileBytes / 2 * 98 / 100);
  EXPECT_LE(fetched, kFileBytes / 2 * 102 / 100);
}

TEST_F(PageResidencyTest, RangesAreClippedAndUnreadableFilesUnchecked) {
  PageResidency residency(3, [this](uint32_t object) { return Path(object); });
  residency.BeforeRead(0, kFileBytes - 100, 4096);  // 100 bytes of it are in the file
  residency.BeforeRead(1, 0, 4096);                 // an empty file: nothing to count
  ResidencyCounts c = residency.Counts();
  // The bytes read, from the cache; or the page they are on, from storage.
  EXPECT_TRUE(c.resident_bytes == 100 || c.fetched_bytes == 4096)
      << c.resident_bytes << " " << c.fetched_bytes;
  EXPECT_EQ(c.unchecked_bytes, 0u);
  residency.BeforeRead(2, 0, 5000);
  residency.BeforeRead(2, 5000, 5000);
  c = residency.Counts();
  EXPECT_EQ(c.unchecked_bytes, 10000u);
  EXPECT_NE(c.error.find("missing.bin"), std::string::npos) << c.error;
}

}  // namespace
}  // namespace trainbench::storage
