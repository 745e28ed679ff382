// PosixStorage::List walks folders by joining names (no realpath per file): the paths it
// returns are relative to the root, sorted, sizes from fstatat; dot files (the writers'
// temporaries) are listed, links to files count as their targets, links to folders are not
// entered, and a missing prefix lists nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "storage/posix_storage.h"

namespace trainbench::storage {
namespace {

namespace fs = std::filesystem;

void Write(const fs::path& path, size_t bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << std::string(bytes, 'x');
}

TEST(PosixStorageListTest, RelativeSortedWithSizesLinksAndDotFiles) {
  const fs::path root = fs::temp_directory_path() / ("tb-list-" + std::to_string(::getpid()));
  fs::remove_all(root);
  Write(root / "train/b.bin", 3);
  Write(root / "train/a.bin", 5);
  Write(root / "train/00/c.bin", 7);
  Write(root / "train/.d.bin.tmp", 1);
  Write(root / "valid/e.bin", 2);
  Write(root / "elsewhere/f.bin", 11);
  fs::create_symlink(root / "train/a.bin", root / "train/link.bin");
  fs::create_directory_symlink(root / "elsewhere", root / "train/linked_folder");
  fs::create_symlink(root / "missing", root / "train/dangling.bin");

  PosixStorage storage(root.string() + "/");
  std::vector<std::string> paths;
  std::vector<uint64_t> sizes;
  for (const auto& e : storage.List("train")) {
    paths.push_back(e.path);
    sizes.push_back(e.size_bytes);
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"train/.d.bin.tmp", "train/00/c.bin", "train/a.bin",
                                             "train/b.bin", "train/link.bin"}));
  EXPECT_EQ(sizes, (std::vector<uint64_t>{1, 7, 5, 3, 5}));
  EXPECT_EQ(storage.List("train/").size(), 5u);
  EXPECT_EQ(storage.List("").size(), 7u);  // + valid/e.bin, elsewhere/f.bin
  EXPECT_EQ(storage.List("").front().path, "elsewhere/f.bin");
  EXPECT_TRUE(storage.List("nothing_here").empty());
  EXPECT_TRUE(storage.List("train/a.bin").empty());  // a file is not a folder
  fs::remove_all(root);
}

}  // namespace
}  // namespace trainbench::storage
