// The results folder's check before any work (CheckWritableFolder) makes the folder; a job
// refused or failed after it takes back what it made and left empty, and nothing else.
#include "common/output_path.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace trainbench {
namespace {
namespace fs = std::filesystem;

fs::path Scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("output_path_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  RemoveEmptyFoldersMadeByChecks();  // forget what earlier tests made
  return dir;
}

TEST(OutputPath, RemovesTheEmptyFoldersItsCheckMadeInnermostFirst) {
  const fs::path base = Scratch("made");
  const fs::path results = base / "a" / "b" / "results";
  CheckWritableFolder(results.string(), "--output");
  ASSERT_TRUE(fs::is_directory(results));
  const auto removed = RemoveEmptyFoldersMadeByChecks();
  EXPECT_EQ(removed, (std::vector<std::string>{results.string(), (base / "a" / "b").string(),
                                               (base / "a").string()}));
  EXPECT_FALSE(fs::exists(base / "a"));
  EXPECT_TRUE(fs::is_directory(base)) << "the folder that was there before the check stays";
}

TEST(OutputPath, KeepsAFolderWithAnythingInItAndTheFoldersAboveIt) {
  const fs::path base = Scratch("kept");
  const fs::path results = base / "a" / "results";
  CheckWritableFolder(results.string(), "output.folder");
  std::ofstream(results / "summary.json") << "{}";
  EXPECT_TRUE(RemoveEmptyFoldersMadeByChecks().empty());
  EXPECT_TRUE(fs::exists(results / "summary.json"));
}

TEST(OutputPath, NeverRemovesAFolderThatWasThereBeforeTheCheck) {
  const fs::path base = Scratch("there");
  const fs::path results = base / "results";
  fs::create_directories(results);
  CheckWritableFolder(results.string(), "--output");
  EXPECT_TRUE(RemoveEmptyFoldersMadeByChecks().empty());
  EXPECT_TRUE(fs::is_directory(results));
}

TEST(OutputPath, RemovesOnlyOnceAndOnlyWhatThisProcessMade) {
  const fs::path base = Scratch("once");
  CheckWritableFolder((base / "results").string(), "--output");
  EXPECT_EQ(RemoveEmptyFoldersMadeByChecks().size(), 1u);
  fs::create_directories(base / "results");  // made again by someone else
  EXPECT_TRUE(RemoveEmptyFoldersMadeByChecks().empty());
  EXPECT_TRUE(fs::is_directory(base / "results"));
}

TEST(OutputPath, AFolderThatCannotBeMadeIsRefusedAndNothingIsRemembered) {
  const fs::path base = Scratch("file");
  std::ofstream(base / "plain") << "x";
  EXPECT_THROW(CheckWritableFolder((base / "plain" / "results").string(), "--output"), UsageError);
  EXPECT_TRUE(RemoveEmptyFoldersMadeByChecks().empty());
  EXPECT_TRUE(fs::exists(base / "plain"));
}

}  // namespace
}  // namespace trainbench
