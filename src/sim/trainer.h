// Emulated training over a resolved dataset: for each epoch, plan every accelerator's
// samples (loader/sampler), run the step loop with the read scheduler feeding it, then
// evaluate and checkpoint on schedule; finally read checkpoints back. Stops cleanly on
// Ctrl-C or a failed read, keeping what was measured (the record says why it stopped).
// Not thread-safe: one per process.
#pragma once

#include <functional>
#include <string>

#include "config/workload.h"
#include "dist/communicator.h"
#include "loader/dataset_files.h"
#include "loader/read_scheduler.h"
#include "metrics/run_record.h"
#include "sim/step_loop.h"
#include "storage/storage.h"

namespace trainbench::sim {

struct TrainerOptions {
  uint64_t accelerators = 1;  // in this process
  bool barrier = true;
  loader::ReadEngine engine = loader::ReadEngine::kPread;
  // 0: pread: min(accelerators x read_threads, 4 x cores, 64); uring: min(that, cores)
  unsigned io_threads = 0;
  std::function<void(const Progress&)> progress;
  std::function<void(const std::string&)> log;  // one line per event (epoch end, checkpoint)
};

metrics::RunRecord RunTraining(const config::WorkloadConfig& config,
                               const loader::DatasetFiles& dataset, storage::Storage& storage,
                               dist::Communicator& communicator, const TrainerOptions& options);

// Steps per epoch for `accelerators` in all; throws UsageError (naming the keys) when
// not even one step fits, so a run can refuse before it creates its results folder.
uint64_t TrainStepsPerEpoch(const config::WorkloadConfig& config,
                            const loader::DatasetFiles& dataset, uint64_t accelerators);

// The reader threads a run uses, and (io_uring) the pieces each keeps in flight: together
// accelerators x read_threads, the depth the workload asks for.
unsigned IoThreads(const config::WorkloadConfig& config, const TrainerOptions& options);
unsigned IoDepth(const config::WorkloadConfig& config, const TrainerOptions& options);

}  // namespace trainbench::sim
