// `trainbench run`'s emulated training over a resolved dataset (not train/, which trains
// a real model): for each epoch, plan every accelerator's samples, run the step loop
// with the read scheduler feeding it, then evaluate and checkpoint on schedule; finally
// read checkpoints back. Stops cleanly on Ctrl-C or a failed read, keeping what was
// measured (the record says why it stopped). The pieces it composes each live in a file
// of their own: sampling.h, schedule.h, read_setup.h, run_record_start.h, step_loop.h,
// checkpointer.h. Not thread-safe: one per process.
#pragma once

#include <functional>
#include <string>

#include "config/workload.h"
#include "dist/communicator.h"
#include "loader/dataset_files.h"
#include "metrics/run_record.h"
#include "sim/read_setup.h"
#include "sim/step_loop.h"
#include "storage/storage.h"

namespace trainbench::sim {

struct EmulationOptions {
  uint64_t accelerators = 1;  // in this process
  bool barrier = true;
  ReadFlags reads;
  std::function<void(const Progress&)> progress;
  std::function<void(const std::string&)> log;  // one line per event (epoch end, checkpoint)
};

metrics::RunRecord RunEmulatedTraining(const config::WorkloadConfig& config,
                                       const loader::DatasetFiles& dataset,
                                       storage::Storage& storage, dist::Communicator& communicator,
                                       const EmulationOptions& options);

}  // namespace trainbench::sim
