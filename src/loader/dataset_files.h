// Finds the dataset a run reads and checks it against the config: from datagen's
// manifest when there is one (no rescan), else by listing train/ and valid/ and scanning
// each file through its format (a dataset written by DLIO). Errors say what differs
// (format, file count, sizes) and, when there is no dataset, the datagen command to run.
// Not thread-safe (runs once, before the event loop).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "config/workload.h"
#include "formats/format.h"
#include "storage/storage.h"

namespace trainbench::loader {

struct DatasetFiles {
  // The train files, then the eval files: one list (a million files are held once), which
  // is also the read engine's list of objects.
  std::vector<formats::WrittenFile> files;
  size_t num_train = 0;
  bool from_manifest = false;
  std::span<const formats::WrittenFile> train() const { return {files.data(), num_train}; }
  std::span<const formats::WrittenFile> eval() const {
    return {files.data() + num_train, files.size() - num_train};
  }
  uint64_t TrainBytes() const;
  uint64_t TotalBytes() const;
};

// `datagen_command`: the command that would write this dataset, quoted in errors.
DatasetFiles ResolveDataset(const config::WorkloadConfig& config, storage::Storage& storage,
                            const std::string& datagen_command);

// Where sample `index` of `file` lies: its recorded extent, or, for formats that record
// none (compressed files), an equal share of the file so that an epoch reads every byte.
formats::SampleExtent ExtentOf(const formats::WrittenFile& file, uint64_t index);

}  // namespace trainbench::loader
