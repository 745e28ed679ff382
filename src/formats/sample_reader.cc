#include "formats/sample_reader.h"

#include <fmt/format.h>

#include "common/error.h"
#include "formats/hdf5_sample_reader.h"

namespace trainbench::formats {

std::unique_ptr<storage::ReadEngine> OpenSampleReader(const config::WorkloadConfig& config,
                                                      storage::Storage& storage,
                                                      const std::vector<std::string>& objects) {
  if (config.dataset.format != config::Format::kHdf5) return nullptr;
  std::vector<std::string> paths;
  paths.reserve(objects.size());
  for (const auto& o : objects) {
    const auto local = storage.LocalPath(o);
    if (!local)
      throw UsageError(
          fmt::format("hdf5 datasets must be on a file system (libhdf5 opens paths); {} is not one",
                      storage.Describe(o)));
    paths.push_back(*local);
  }
  return MakeHdf5SampleReader(std::move(paths));
}

}  // namespace trainbench::formats
