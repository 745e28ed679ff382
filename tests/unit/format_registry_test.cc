// The format registry: every format describes itself consistently, unknown names are
// refused with the list, and a run's dataset listing reads every spelling a description
// gives (older trainbench versions wrote .h5, .jpg, .bin).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/error.h"
#include "config/workload.h"
#include "dataset/dataset_files.h"
#include "format_test_support.h"
#include "formats/format.h"
#include "usage_error_of.h"

namespace trainbench::formats {
namespace {

TEST(FormatRegistryTest, NamesAreUniqueAndExtensionsStartWithTheName) {
  std::set<std::string_view> names;
  ASSERT_FALSE(AllFormats().empty());
  for (const auto* d : AllFormats()) {
    SCOPED_TRACE(std::string(d->name));
    EXPECT_TRUE(names.insert(d->name).second) << "duplicate name";
    EXPECT_FALSE(d->name.empty());
    ASSERT_FALSE(d->extensions.empty());
    // datagen writes "x.<name>", as DLIO names its files.
    EXPECT_EQ(d->extensions.front(), d->name);
    for (const auto e : d->extensions) {
      EXPECT_FALSE(e.empty());
      EXPECT_EQ(e.find('.'), std::string_view::npos) << e;
    }
    EXPECT_FALSE(d->help.empty());
    EXPECT_NE(d->make, nullptr);
    EXPECT_EQ(&FindFormat(d->name), d);
    // The format a description makes says it came from that description.
    config::WorkloadConfig c;
    c.dataset.format = std::string(d->name);
    EXPECT_EQ(&MakeFormat(c)->description(), d);
  }
}

TEST(FormatRegistryTest, UnknownNameThrowsWithTheList) {
  const std::string e = UsageErrorOf([] { FindFormat("xyz"); });
  EXPECT_NE(e.find("dataset.format 'xyz' is not a known format"), std::string::npos) << e;
  for (const auto* d : AllFormats())
    EXPECT_NE(e.find(std::string(d->name)), std::string::npos) << e;
  config::WorkloadConfig c;
  c.dataset.format = "tfrecords";
  EXPECT_NE(UsageErrorOf([&] { CheckFormat(c); }).find("'tfrecords'"), std::string::npos);
}

TEST(FormatRegistryTest, ChecksNameTheKey) {
  config::WorkloadConfig c;
  c.dataset.format = "hdf5";
  c.dataset.enable_chunking = true;
  EXPECT_NE(UsageErrorOf([&] { CheckFormat(c); }).find("dataset.chunk_size"), std::string::npos);
  c.dataset.chunk_size = 4096;
  EXPECT_EQ(UsageErrorOf([&] { CheckFormat(c); }), "");
  c.dataset.compression = config::Compression::kLzf;
  EXPECT_NE(UsageErrorOf([&] { CheckFormat(c); }).find("dataset.compression lzf"),
            std::string::npos);
  c.dataset.format = "csv";
  EXPECT_NE(UsageErrorOf([&] { CheckFormat(c); }).find("dataset.compression lzf"),
            std::string::npos);
  c.dataset.format = "npz";  // any compression deflates
  EXPECT_EQ(UsageErrorOf([&] { CheckFormat(c); }), "");
}

using OlderSpellingsTest = FormatTest;

// A dataset without a manifest (scanned, as DLIO's) whose files carry each spelling a
// format lists is found and read by `run`'s listing.
TEST_F(OlderSpellingsTest, RunListsEverySpelling) {
  for (const auto* d : AllFormats()) {
    for (const auto extension : d->extensions) {
      SCOPED_TRACE(fmt::format("{} as .{}", d->name, extension));
      std::filesystem::remove_all(Full("train"));
      config::WorkloadConfig c;
      c.dataset.format = std::string(d->name);
      c.dataset.num_files_train = 2;
      c.dataset.num_samples_per_file = 2;
      const auto format = MakeFormat(c);
      for (int i = 0; i < 2; ++i)
        format->Write({fmt::format("train/img_{}_of_2.{}", i, extension),
                       static_cast<uint64_t>(i + 1),
                       {2500, 2500}},
                      storage());
      const auto files = dataset::ResolveDataset(c, storage(), "trainbench datagen");
      EXPECT_FALSE(files.from_manifest);
      ASSERT_EQ(files.num_train, 2u);
      for (size_t i = 0; i < files.num_train; ++i) {
        EXPECT_EQ(files.files.NumSamples(i), 2u);
        const std::string_view path = files.files.Path(i);
        EXPECT_EQ(path.substr(path.rfind('.') + 1), extension);
      }
    }
  }
}

using CompanionsTest = FormatTest;

// What a format writes beside a data file is what its description says: datagen plans and
// cleans companions by the description, naming no format.
TEST_F(CompanionsTest, TheDescriptionNamesWhatWriteMakesBesideAFile) {
  size_t with_companions = 0;
  for (const auto* d : AllFormats()) {
    SCOPED_TRACE(std::string(d->name));
    config::WorkloadConfig c;
    c.dataset.format = std::string(d->name);
    const std::string path = fmt::format("train/img_0_of_1.{}", d->name);
    const WrittenFile written = MakeFormat(c)->Write({path, 1, {2500, 2500}}, storage());
    const std::vector<std::string> said =
        d->companions ? d->companions(path) : std::vector<std::string>{};
    EXPECT_EQ(written.companions, said);
    for (const auto& companion : said)
      EXPECT_TRUE(storage().FileSize(companion).has_value()) << companion;
    with_companions += said.empty() ? 0 : 1;
  }
  EXPECT_EQ(with_companions, 3u);  // tfrecord's DALI index; indexed_binary's (and mmap's) indexes
}

}  // namespace
}  // namespace trainbench::formats
