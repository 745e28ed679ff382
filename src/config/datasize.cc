#include "config/datasize.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace trainbench::config {

uint64_t MinStepsForAuVerdict(const WorkloadConfig& config) {
  return config.metric.exclude_start_steps +
         kAuStepsPerPrefetch * std::max<uint64_t>(1, config.reader.prefetch_size);
}

DataSize ComputeDataSize(const WorkloadConfig& config, uint64_t accelerators, uint64_t hosts,
                         double host_memory_gib) {
  // In doubles first: 500 x batch x accelerators, or 5 x memory / record, can pass 2^64,
  // where integers wrap and a double-to-integer cast is undefined.
  const double record = std::max(1.0, config.dataset.record_length_bytes);
  const double by_steps =
      500.0 * static_cast<double>(config.reader.batch_size) * static_cast<double>(accelerators);
  const double memory_bytes =
      5.0 * static_cast<double>(hosts) * host_memory_gib * 1024.0 * 1024.0 * 1024.0;
  const double samples = std::max(by_steps, std::ceil(memory_bytes / record));
  if (!(samples <= kMaxDataSizeSamples))
    throw UsageError(fmt::format(
        "the rule asks for {:.3g} samples (500 x {} x {} accelerators; 5 x {} host(s) x {:.3g} "
        "GiB / {} B): more than {:.0e}, which no dataset here can hold; check --accelerators, "
        "--hosts and --host-memory-gib",
        samples, config.reader.batch_size, accelerators, hosts, host_memory_gib, record,
        kMaxDataSizeSamples));
  DataSize size;
  size.samples = static_cast<uint64_t>(samples);
  const uint64_t per_file = std::max<uint64_t>(1, config.dataset.num_samples_per_file);
  size.files = (size.samples + per_file - 1) / per_file;
  size.bytes = static_cast<double>(size.samples) * record;
  return size;
}

}  // namespace trainbench::config
