// The one place a dataset is found: the dataset a run reads and checks it against the config: from
// datagen's manifest when there is one (no rescan), else by listing train/ and valid/ and scanning
// each file through its format (a dataset written by DLIO). Errors say what differs
// (format, file count, sizes) and, when there is no dataset, the datagen command to run.
// Not thread-safe (runs once, before the event loop).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "config/workload.h"
#include "dataset/file_table.h"
#include "formats/format.h"
#include "storage/storage.h"

namespace trainbench::dataset {

struct DatasetFiles {
  // The train files, then the eval files: one table (a million files are held once, compactly),
  // whose names are also the read engine's objects.
  FileTable files;
  size_t num_train = 0;
  bool from_manifest = false;
  size_t NumEval() const { return files.size() - num_train; }
  uint64_t TrainBytes() const { return files.Bytes(0, num_train); }
  uint64_t TotalBytes() const { return files.Bytes(0, files.size()); }
  // Samples per file, train files then eval files apart: the sampler's input.
  std::span<const uint32_t> TrainSampleCounts() const { return files.SampleCounts(0, num_train); }
  std::span<const uint32_t> EvalSampleCounts() const {
    return files.SampleCounts(num_train, files.size());
  }
};

// `datagen_command`: the command that would write this dataset, quoted in errors.
DatasetFiles ResolveDataset(const config::WorkloadConfig& config, storage::Storage& storage,
                            const std::string& datagen_command);

}  // namespace trainbench::dataset
