// The report page's assets reach the binary byte for byte: the build embeds every file of
// src/report/page/assets/ (trainbench_embed_files), and the CMake step that writes the raw strings
// must not touch what CMake would read as syntax (${...} in template literals, ';', '\').
#include "report/page/page_assets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace trainbench::report {
namespace {

const std::filesystem::path kAssets =
    std::filesystem::path(TRAINBENCH_SOURCE_DIR) / "src/report/page/assets";

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PageAssets, EveryFileIsEmbeddedAsItIs) {
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(kAssets)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".css" || ext == ".js") on_disk.insert(entry.path().filename().string());
  }
  std::set<std::string> embedded;
  for (const PageAsset& asset : PageAssets()) {
    embedded.insert(asset.name);
    EXPECT_EQ(asset.text, ReadFile(kAssets / asset.name)) << asset.name;
  }
  EXPECT_EQ(embedded, on_disk);
  EXPECT_NE(PageAssetText("run_page.js").find("${"), std::string::npos)
      << "a template literal should be in the page script, kept as it is";
}

TEST(PageAssets, TheScriptsAndTheStyleSheetAreThere) {
  EXPECT_FALSE(PageAssetText("page.css").empty());
  for (const char* script : kPageScripts) EXPECT_FALSE(PageAssetText(script).empty()) << script;
  EXPECT_THROW(PageAssetText("missing.js"), std::logic_error);
}

}  // namespace
}  // namespace trainbench::report
