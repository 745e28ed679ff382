// The dataset plan: which files a workload's dataset has, their names (DLIO's layout),
// and the size of every sample. Pure arithmetic on the config: datagen writes it and a
// run over a dataset without a manifest recomputes it. Immutable once built.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/workload.h"

namespace trainbench::dataset {

enum class Split { kTrain, kEval };

struct PlannedFile {
  std::string path;  // relative to the dataset root: "train/img_0_of_8.tfrecord"
  Split split = Split::kTrain;
  uint64_t index = 0;  // within its split
  uint64_t seed = 0;   // seeds the file's bytes
  std::vector<uint64_t> sample_sizes;
  uint64_t PayloadBytes() const;
};

struct DatasetPlan {
  std::vector<PlannedFile> files;
  uint64_t samples_per_file = 1;
  uint64_t PayloadBytes() const;
  uint64_t NumSamples() const;
};

// "img_03_of_16.tfrecord": DLIO's name, index zero-padded to the digits of the count.
std::string DatasetFileName(const std::string& prefix, uint64_t index, uint64_t count,
                            const std::string& ext);

// The folder of a split ("train", "valid"), with DLIO's numbered subfolders when there are
// two or more ("train/07" of 12).
std::string SplitFolder(Split split, uint64_t index, uint64_t num_subfolders);

DatasetPlan PlanDataset(const config::WorkloadConfig& config);
// The files of a split, and the path of one of them as PlanDataset names it, without planning
// the rest: a run over a million files matches names, not sample sizes.
uint64_t PlannedCount(const config::WorkloadConfig& config, Split split);
std::string PlannedPath(const config::WorkloadConfig& config, Split split, uint64_t index);

// Sample sizes follow record_length_bytes and its stdev (seeded normal, rounded, never
// below one byte); formats with square samples round each down to a square.
uint64_t DrawSampleSize(double mean, double stdev, uint64_t seed);

}  // namespace trainbench::dataset
