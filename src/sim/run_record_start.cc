#include "sim/run_record_start.h"

#include "metrics/process_stats.h"

namespace trainbench::sim {

metrics::RunRecord StartRunRecord(const config::WorkloadConfig& config,
                                  const dataset::DatasetFiles& dataset, const RunShape& shape) {
  metrics::RunRecord r;
  r.workload = config.workload_name;
  r.accelerators = shape.accelerators;
  r.ranks = shape.ranks;
  r.epochs_planned = config.train.epochs;
  r.steps_per_epoch = shape.steps_per_epoch;
  r.batch_size = config.reader.batch_size;
  r.train_files = dataset.num_train;
  for (size_t i = 0; i < dataset.num_train; ++i) r.train_samples += dataset.files.NumSamples(i);
  r.dataset_bytes = dataset.TotalBytes();
  r.train_bytes = dataset.TrainBytes();
  r.random_shuffle_seed = shape.random_shuffle_seed;
  r.nominal_sample_bytes = config.dataset.record_length_bytes;
  r.barrier = shape.barrier;
  r.host_memory_bytes = metrics::HostMemoryBytes();
  return r;
}

}  // namespace trainbench::sim
