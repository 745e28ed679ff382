// Which objects under a dataset folder trainbench wrote: those its manifest or a datagen
// journal names (with their companions), and its own bookkeeping (the manifest, journals,
// the lock). `clean` removes only these; anything else is a user's and is left alone, so a
// typo in dataset.data_folder cannot wipe a file system or a bucket.
#pragma once

#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::dataset {

struct DatasetObjects {
  bool has_dataset = false;  // a manifest or a journal was found
  std::vector<storage::ListEntry> ours;
  std::vector<storage::ListEntry> foreign;
};

// Lists the storage and sorts every object into ours or foreign (a killed writer's
// temporaries are neither: Storage::RemoveLeftovers removes them). Throws RuntimeError when
// the manifest is damaged (datagen's message: delete it and re-run).
DatasetObjects FindDatasetObjects(storage::Storage& storage);

// A file a killed writer left half-written (".NAME.tbtmp"): neither ours nor foreign, since
// Storage::RemoveLeftovers removes it.
bool IsWriterTemporary(const std::string& path);

// trainbench's bookkeeping of a dataset: its manifest, lock and journal (a file, or on S3
// pieces under its name), and the readers' marks: not data, and written only by trainbench.
bool IsBookkeeping(const std::string& path);

}  // namespace trainbench::dataset
