#include "dataset/plan.h"

#include <gtest/gtest.h>

#include "config/workload_yaml.h"

namespace trainbench::dataset {
namespace {

TEST(PlanTest, DlioNames) {
  EXPECT_EQ(DatasetFileName("img", 3, 16, "tfrecord"), "img_03_of_16.tfrecord");
  EXPECT_EQ(DatasetFileName("img", 0, 8, "npz"), "img_0_of_8.npz");
  EXPECT_EQ(DatasetFileName("part", 7, 1000, "h5"), "part_0007_of_1000.h5");
  EXPECT_EQ(SplitFolder(Split::kTrain, 5, 0), "train");
  EXPECT_EQ(SplitFolder(Split::kTrain, 5, 2), "train/1");
  // DLIO's subfolders: none for one, zero-padded to the digits of their count.
  EXPECT_EQ(SplitFolder(Split::kTrain, 5, 1), "train");
  EXPECT_EQ(SplitFolder(Split::kEval, 13, 12), "valid/01");
  EXPECT_EQ(SplitFolder(Split::kEval, 5, 0), "valid");
}

TEST(PlanTest, FilesSamplesAndSizes) {
  auto c = config::LoadWorkload("resnet50_h100",
                                {"dataset.num_files_train=4", "dataset.num_files_eval=2"})
               .config;
  const DatasetPlan plan = PlanDataset(c);
  ASSERT_EQ(plan.files.size(), 6u);
  EXPECT_EQ(plan.files[0].path, "train/img_0_of_4.tfrecord");
  EXPECT_EQ(plan.files[5].path, "valid/img_1_of_2.tfrecord");
  EXPECT_EQ(plan.NumSamples(), 6u * 1251);
  for (const auto& f : plan.files)
    // No stdev: the rounded mean, squared down to DLIO's side x side image (338 x 338).
    for (uint64_t s : f.sample_sizes) EXPECT_EQ(s, 114244u);
  // Seeds differ per file and split.
  EXPECT_NE(plan.files[0].seed, plan.files[1].seed);
  EXPECT_NE(plan.files[0].seed, plan.files[4].seed);
}

TEST(PlanTest, StdevSpreadsSizesNeverBelowOneByte) {
  auto c = config::LoadWorkload(
               "unet3d_h100",
               {"dataset.format=tfrecord", "dataset.num_samples_per_file=50",
                "dataset.record_length_bytes=100", "dataset.record_length_bytes_stdev=400"})
               .config;
  const DatasetPlan plan = PlanDataset(c);
  uint64_t ones = 0, distinct_above = 0;
  for (const auto& f : plan.files)
    for (uint64_t s : f.sample_sizes) {
      EXPECT_GE(s, 1u);
      ones += s == 1;
      distinct_above += s > 500;
    }
  EXPECT_GT(ones, 0u);  // the clamp is hit with this stdev
  EXPECT_GT(distinct_above, 0u);
}

TEST(PlanTest, ArrayFormatsDrawOneSizePerFile) {
  auto c = config::LoadWorkload("unet3d_h100", {"dataset.num_samples_per_file=4"}).config;
  const DatasetPlan plan = PlanDataset(c);
  for (const auto& f : plan.files) {
    ASSERT_EQ(f.sample_sizes.size(), 4u);
    for (uint64_t s : f.sample_sizes) EXPECT_EQ(s, f.sample_sizes[0]);
  }
  EXPECT_NE(plan.files[0].sample_sizes[0], plan.files[1].sample_sizes[0]);
}

// DLIO writes side^2 values (bytes) a sample for csv and indexed_binary, as for arrays:
// 114660 bytes give 338^2 = 114244, one size per file.
TEST(PlanTest, CsvAndIndexedBinarySamplesAreSquares) {
  for (const char* format : {"csv", "indexed_binary", "mmap_indexed_binary"}) {
    auto c = config::LoadWorkload("resnet50_h100", {"dataset.num_files_train=2",
                                                    std::string("dataset.format=") + format})
                 .config;
    for (const auto& f : PlanDataset(c).files)
      for (uint64_t s : f.sample_sizes) EXPECT_EQ(s, 338u * 338u) << format;
  }
}

TEST(PlanTest, SameSeedSamePlan) {
  auto c = config::LoadWorkload("cosmoflow_h100", {"dataset.num_files_train=100"}).config;
  const auto a = PlanDataset(c), b = PlanDataset(c);
  c.train.seed = 1;
  const auto other = PlanDataset(c);
  bool differs = false;
  for (size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].sample_sizes, b.files[i].sample_sizes);
    differs |= a.files[i].sample_sizes != other.files[i].sample_sizes;
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace trainbench::dataset
