// datagen's generator over in-memory and fault-injecting storage: resume, atomicity
// under a full disk, and the manifest's agreement with the plan.
#include "dataset/generator.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "common/error.h"
#include "config/workload_yaml.h"
#include "storage/fault_injecting_storage.h"
#include "storage/memory_storage.h"

namespace trainbench::dataset {
namespace {

config::WorkloadConfig SmallResnet() {
  return config::LoadWorkload(
             "resnet50_h100",
             {"dataset.num_files_train=6", "dataset.num_files_eval=2",
              "dataset.num_samples_per_file=10", "dataset.record_length_bytes=5000"})
      .config;
}

TEST(GeneratorTest, WritesThePlanAndTheManifest) {
  storage::MemoryStorage storage;
  const auto config = SmallResnet();
  const auto result = Generate(config, storage, {2, true, false});
  EXPECT_EQ(result.files_written, 8u);
  EXPECT_EQ(result.files_skipped, 0u);
  const auto manifest = ReadManifest(storage);
  ASSERT_TRUE(manifest.has_value());
  const auto plan = PlanDataset(config);
  ASSERT_EQ(manifest->files.size(), plan.files.size());
  for (size_t i = 0; i < plan.files.size(); ++i) {
    EXPECT_EQ(manifest->files[i].path, plan.files[i].path);
    EXPECT_EQ(manifest->files[i].num_samples, 10u);
    EXPECT_EQ(storage.FileSize(plan.files[i].path), manifest->files[i].size_bytes);
  }
  EXPECT_EQ(result.dataset_bytes, manifest->TotalBytes());
  // A second run finds everything done.
  const auto again = Generate(config, storage, {2, false, false});
  EXPECT_EQ(again.files_written, 0u);
  EXPECT_EQ(again.files_skipped, 8u);
}

TEST(GeneratorTest, FullDiskLeavesOnlyWholeFilesAndResumes) {
  storage::MemoryStorage memory;
  storage::FaultInjectingStorage faulty(memory);
  const auto config = SmallResnet();
  faulty.FailWritesAfter(120000, ENOSPC);  // about two files' worth
  try {
    Generate(config, faulty, {1, false, false});
    FAIL() << "expected a full-disk error";
  } catch (const IoError& e) {
    EXPECT_EQ(e.error_number(), ENOSPC);
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(ReadManifest(memory).has_value());
  // Whatever is under a final name is whole (the same bytes a clean run writes).
  storage::MemoryStorage reference;
  Generate(config, reference, {1, false, false});
  const auto written = memory.List("");
  EXPECT_GT(written.size(), 0u);
  for (const auto& entry : written) {
    if (entry.path.rfind(kJournalName, 0) == 0) continue;  // an object store's journal pieces
    EXPECT_EQ(storage::ReadAll(memory, entry.path), storage::ReadAll(reference, entry.path))
        << entry.path;
  }
  // With space again, a re-run completes the dataset.
  faulty.FailWritesAfter(UINT32_MAX, ENOSPC);
  const auto result = Generate(config, faulty, {2, true, false});
  EXPECT_EQ(result.manifest.files.size(), 8u);
  for (const auto& entry : reference.List("")) {
    if (entry.path == kManifestName) continue;
    EXPECT_EQ(storage::ReadAll(memory, entry.path), storage::ReadAll(reference, entry.path))
        << entry.path;
  }
}

TEST(GeneratorTest, VerifyReportsAMissingFile) {
  storage::MemoryStorage storage;
  const auto config = SmallResnet();
  const auto result = Generate(config, storage, {1, false, false});
  storage.Remove(result.manifest.files[3].path);
  try {
    VerifyDataset(config, result.manifest, storage, 1, false);
    FAIL() << "expected verify to fail";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(result.manifest.files[3].path), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace trainbench::dataset
