#include "dataset/ownership.h"

#include <gtest/gtest.h>

#include <string>

#include "common/strings.h"
#include "dataset/manifest.h"
#include "storage/memory_storage.h"

// An object store (no local paths, as on S3): `clean` sorts its objects the same way.
namespace trainbench::dataset {
namespace {

void Put(storage::Storage& storage, const std::string& path, const std::string& text) {
  auto out = storage.Create(path);
  out->Append(text.data(), text.size());
  out->Commit();
}

std::vector<std::string> Paths(const std::vector<storage::ListEntry>& entries) {
  std::vector<std::string> paths;
  for (const auto& e : entries) paths.push_back(e.path);
  return paths;
}

TEST(DatasetOwnership, NothingOfTrainbenchsIsNoDataset) {
  storage::MemoryStorage storage;
  Put(storage, "thesis.txt", "mine");
  Put(storage, "photos/a.jpg", "mine");
  const auto found = FindDatasetObjects(storage);
  EXPECT_FALSE(found.has_dataset);
  EXPECT_TRUE(found.ours.empty());
  EXPECT_EQ(found.foreign.size(), 2u);
}

TEST(DatasetOwnership, TheManifestsFilesAndCompanionsAreOursTheRestForeign) {
  storage::MemoryStorage storage;
  Manifest m;
  m.workload = "w";
  m.key = {{"format", "tfrecord"}};
  formats::WrittenFile f;
  f.path = "train/a.tfrecord";
  f.size_bytes = 3;
  f.companions = {"index/a.tfrecord.idx"};
  m.files.push_back(f);
  WriteManifest(m, storage);
  Put(storage, "train/a.tfrecord", "abc");
  Put(storage, "index/a.tfrecord.idx", "0");
  Put(storage, "train/other.tfrecord", "another dataset's");
  Put(storage, "notes.txt", "mine");
  const auto found = FindDatasetObjects(storage);
  EXPECT_TRUE(found.has_dataset);
  EXPECT_EQ(Paths(found.ours), (std::vector<std::string>{"index/a.tfrecord.idx", "train/a.tfrecord",
                                                         "trainbench_manifest.json"}));
  EXPECT_EQ(Paths(found.foreign), (std::vector<std::string>{"notes.txt", "train/other.tfrecord"}));
}

TEST(DatasetOwnership, AJournalOfAnInterruptedDatagenNamesItsFiles) {
  storage::MemoryStorage storage;
  formats::WrittenFile f;
  f.path = "train/a.npz";
  f.size_bytes = 1;
  Put(storage, std::string(kJournalName) + ".rank1",
      "{\"format\":\"npz\"}\n" + ToJson(f).dump() + "\n{\"path\": torn");
  Put(storage, "train/a.npz", "x");
  Put(storage, "train/b.npz", "not journaled");
  const auto found = FindDatasetObjects(storage);
  EXPECT_TRUE(found.has_dataset);
  EXPECT_EQ(Paths(found.ours),
            (std::vector<std::string>{".trainbench_manifest.journal.rank1", "train/a.npz"}));
  EXPECT_EQ(Paths(found.foreign), (std::vector<std::string>{"train/b.npz"}));
}

// On an object store a journal is a folder of pieces (dataset/manifest.h's Journal).
TEST(DatasetOwnership, AnObjectStoreJournalsPiecesNameTheirFiles) {
  storage::MemoryStorage storage;
  formats::WrittenFile f;
  f.path = "train/a.npz";
  f.size_bytes = 1;
  Put(storage, std::string(kJournalName) + "/00000000",
      "{\"format\":\"npz\"}\n" + ToJson(f).dump() + "\n");
  Put(storage, "train/a.npz", "x");
  Put(storage, "train/b.npz", "not journaled");
  const auto found = FindDatasetObjects(storage);
  EXPECT_TRUE(found.has_dataset);
  EXPECT_EQ(Paths(found.ours),
            (std::vector<std::string>{".trainbench_manifest.journal/00000000", "train/a.npz"}));
  EXPECT_EQ(Paths(found.foreign), (std::vector<std::string>{"train/b.npz"}));
}

TEST(Printable, KeepsPrintableUtf8AndEscapesTheRest) {
  EXPECT_EQ(Printable("plain name.jpg"), "plain name.jpg");
  EXPECT_EQ(Printable("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(Printable(std::string("a\x1b[2J\n\x00\xff", 8)), "a\\x1b[2J\\x0a\\x00\\xff");
  EXPECT_EQ(Printable("\xc2\x85"), "\\xc2\\x85");  // a C1 control
  EXPECT_EQ(Printable("\xe2\x82"), "\\xe2\\x82");  // a sequence cut short
  EXPECT_EQ(Printable("abcdef", 3), "abc...");
}

}  // namespace
}  // namespace trainbench::dataset
