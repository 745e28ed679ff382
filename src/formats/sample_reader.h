// The read engine a format brings for formats whose samples are read through a library
// rather than as byte extents (hdf5: libhdf5 hyperslabs); null for the others, which
// the storage's own engine reads. Not thread-safe (called once per run).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/workload.h"
#include "storage/storage.h"

namespace trainbench::formats {

std::unique_ptr<storage::ReadEngine> OpenSampleReader(const config::WorkloadConfig& config,
                                                      storage::Storage& storage,
                                                      const std::vector<std::string>& objects);

}  // namespace trainbench::formats
