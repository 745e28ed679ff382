// MLPerf Storage's dataset sizing rule: the dataset must be at least 5x the hosts'
// memory (so the page cache cannot serve it) and at least 500 steps of every
// accelerator's batches.
#pragma once

#include <cstdint>

#include "config/workload.h"

namespace trainbench::config {

struct DataSize {
  uint64_t samples = 0;
  uint64_t files = 0;
  double bytes = 0;  // samples x record_length_bytes
};

// AU over a few steps is no verdict: the prefetched batches cover the reads of the first
// steps after the ones left out, so an epoch needs several prefetch depths of counted steps
// (kAuStepsPerPrefetch x reader.prefetch_size, after metric.exclude_start_steps) before its
// AU says whether storage kept up.
inline constexpr uint64_t kAuStepsPerPrefetch = 4;
// Steps per epoch (per accelerator) an AU verdict needs.
uint64_t MinStepsForAuVerdict(const WorkloadConfig& config);

// Past this (1e15 samples, exabytes) the numbers are a typo, not a dataset.
inline constexpr double kMaxDataSizeSamples = 1e15;

// Throws UsageError when the rule asks for more than kMaxDataSizeSamples.
DataSize ComputeDataSize(const WorkloadConfig& config, uint64_t accelerators, uint64_t hosts,
                         double host_memory_gib);

}  // namespace trainbench::config
