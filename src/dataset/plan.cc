#include "dataset/plan.h"

#include <fmt/format.h>

#include <cmath>

#include "common/random.h"
#include "formats/format.h"
#include "formats/wire/array_samples.h"

namespace trainbench::dataset {

uint64_t PlannedFile::PayloadBytes() const {
  uint64_t total = 0;
  for (const auto s : sample_sizes) total += s;
  return total;
}

uint64_t DatasetPlan::PayloadBytes() const {
  uint64_t total = 0;
  for (const auto& f : files) total += f.PayloadBytes();
  return total;
}

uint64_t DatasetPlan::NumSamples() const {
  uint64_t total = 0;
  for (const auto& f : files) total += f.sample_sizes.size();
  return total;
}

std::string DatasetFileName(const std::string& prefix, uint64_t index, uint64_t count,
                            const std::string& ext) {
  const size_t digits = std::to_string(count).size();
  return fmt::format("{}_{:0{}}_of_{}.{}", prefix, index, digits, count, ext);
}

std::string SplitFolder(Split split, uint64_t index, uint64_t num_subfolders) {
  std::string folder = split == Split::kTrain ? "train" : "valid";
  // As DLIO: subfolders only from two on, named with the digits of their count ("03").
  if (num_subfolders > 1)
    folder += fmt::format("/{:0{}}", index % num_subfolders, std::to_string(num_subfolders).size());
  return folder;
}

uint64_t DrawSampleSize(double mean, double stdev, uint64_t seed) {
  double size = mean;
  if (stdev > 0) {
    Random random(seed);
    size = mean + stdev * random.Normal();
  }
  const double rounded = std::llround(size);
  return rounded < 1 ? 1 : static_cast<uint64_t>(rounded);
}

uint64_t PlannedCount(const config::WorkloadConfig& config, Split split) {
  return split == Split::kTrain ? config.dataset.num_files_train : config.dataset.num_files_eval;
}

std::string PlannedPath(const config::WorkloadConfig& config, Split split, uint64_t index) {
  const auto& d = config.dataset;
  // The format's name, as DLIO names its files (it lists only files whose names end with it).
  const std::string ext(formats::FindFormat(d.format).extensions.front());
  return SplitFolder(split, index,
                     split == Split::kTrain ? d.num_subfolders_train : d.num_subfolders_eval) +
         "/" + DatasetFileName(d.file_prefix, index, PlannedCount(config, split), ext);
}

DatasetPlan PlanDataset(const config::WorkloadConfig& config) {
  const auto& d = config.dataset;
  const formats::FormatDescription& format = formats::FindFormat(d.format);
  const formats::FormatTraits& traits = format.traits;
  DatasetPlan plan;
  plan.samples_per_file = d.num_samples_per_file;
  const uint64_t seed = config.train.seed;
  auto add_split = [&](Split split) {
    const uint64_t count = PlannedCount(config, split);
    for (uint64_t i = 0; i < count; ++i) {
      PlannedFile f;
      f.split = split;
      f.index = i;
      f.path = PlannedPath(config, split, i);
      f.seed = Mix(Mix(seed, split == Split::kTrain ? 1 : 2), i);
      f.sample_sizes.resize(plan.samples_per_file);
      for (uint64_t s = 0; s < plan.samples_per_file; ++s) {
        const uint64_t draw = traits.uniform_sample_size ? 0 : s;
        const uint64_t size =
            DrawSampleSize(d.record_length_bytes, d.record_length_bytes_stdev, Mix(f.seed, draw));
        const uint64_t side = formats::SquareSide(size);
        f.sample_sizes[s] = traits.square_samples ? side * side : size;
      }
      plan.files.push_back(std::move(f));
    }
  };
  plan.files.reserve(d.num_files_train + d.num_files_eval);
  add_split(Split::kTrain);
  add_split(Split::kEval);
  return plan;
}

}  // namespace trainbench::dataset
