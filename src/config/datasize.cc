#include "config/datasize.h"

#include <algorithm>
#include <cmath>

namespace trainbench::config {

DataSize ComputeDataSize(const WorkloadConfig& config, uint64_t accelerators, uint64_t hosts,
                         double host_memory_gib) {
  const double record = config.dataset.record_length_bytes;
  const uint64_t by_steps = 500 * config.reader.batch_size * accelerators;
  const double memory_bytes =
      5.0 * static_cast<double>(hosts) * host_memory_gib * 1024.0 * 1024.0 * 1024.0;
  const auto by_memory = static_cast<uint64_t>(std::ceil(memory_bytes / record));
  DataSize size;
  size.samples = std::max(by_steps, by_memory);
  const uint64_t per_file = std::max<uint64_t>(1, config.dataset.num_samples_per_file);
  size.files = (size.samples + per_file - 1) / per_file;
  size.bytes = static_cast<double>(size.samples) * record;
  return size;
}

}  // namespace trainbench::config
