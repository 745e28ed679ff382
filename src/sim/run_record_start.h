// The parts of a run's record known before the first read: the workload, the dataset,
// the accelerators and how they sample, the host. The step loop and the reader fill in
// the rest. Not thread-safe.
#pragma once

#include <cstdint>

#include "config/workload.h"
#include "dataset/dataset_files.h"
#include "metrics/run_record.h"

namespace trainbench::sim {

struct RunShape {
  uint64_t accelerators = 1;  // over all ranks
  uint64_t ranks = 1;
  uint64_t steps_per_epoch = 0;
  uint64_t random_shuffle_seed = 0;
  bool barrier = true;
};

metrics::RunRecord StartRunRecord(const config::WorkloadConfig& config,
                                  const dataset::DatasetFiles& dataset, const RunShape& shape);

}  // namespace trainbench::sim
