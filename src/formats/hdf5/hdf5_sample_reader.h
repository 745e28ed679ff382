// Reading samples of DLIO-layout HDF5 files through libhdf5, as h5py does: one hyperslab
// per sample (row `i` of the dataset `records_0`, else `records`: DLIO 2.0.0's files have
// only that name, datagen's both for one dataset, which is read once by its first name).
// Every libhdf5 call holds formats' process-wide HDF5 lock (hdf5_handle.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::formats {

// The shape of an open file's sample dataset, as the reader needs it. (Where samples lie
// in a file, for a run's plan, is Hdf5Format::Scan's: the one scan of a file.)
struct Hdf5Shape {
  std::string dataset;  // "records_0" or "records"
  uint64_t num_samples = 0;
  uint64_t sample_bytes = 0;
  // Byte offset of sample 0 in the file when the dataset is stored contiguously
  // (uncompressed, unchunked: sample i is at data_offset + i x sample_bytes).
  std::optional<uint64_t> data_offset;
};

// The read engine of HDF5 datasets: each request reads sample ReadRequest::sample of its
// file as one hyperslab through libhdf5 (as h5py does), into the queue's own buffer.
// libhdf5 serializes every call, so a queue reads synchronously (depth 1). Files stay
// open until the engine is destroyed. Thread-safe as storage::ReadEngine says.
// `objects` must have local paths (libhdf5 opens paths): a UsageError says so otherwise.
std::unique_ptr<storage::ReadEngine> OpenHdf5SampleReader(storage::Storage& storage,
                                                          const storage::ObjectNames& objects);

}  // namespace trainbench::formats
