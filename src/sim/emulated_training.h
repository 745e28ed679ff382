// `trainbench run`'s emulated training over a resolved dataset (not train/, which trains
// a real model): for each epoch, plan every accelerator's samples, run the step loop
// with the read scheduler feeding it, then evaluate and checkpoint on schedule; finally
// read checkpoints back. Stops cleanly on Ctrl-C or a failed read, keeping what was
// measured (the record says why it stopped). With several ranks, epochs start together,
// step barriers span the ranks, and a rank that stops tells the others, which stop too
// (each rank returns its own record; rank 0 merges them). The pieces it composes each live in a
// file of their own: sampling.h, schedule.h, read_setup.h, run_record_start.h, step_loop.h,
// checkpointer.h. Not thread-safe: one per thread (a mix runs several, each on its own thread
// with its own communicator).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "config/workload.h"
#include "dataset/dataset_files.h"
#include "dist/communicator.h"
#include "metrics/run_record.h"
#include "metrics/timeseries.h"
#include "sim/read_setup.h"
#include "sim/step_loop.h"
#include "storage/storage.h"

namespace trainbench::sim {

struct EmulationOptions {
  uint64_t accelerators = 1;  // in this process
  // Where this rank's accelerators stand among every rank's (ranks may have different
  // counts): the global index of its first, and the total; 0 total: this process alone.
  uint64_t first_accelerator = 0;
  uint64_t total_accelerators = 0;
  // The seed of `shuffle: random` orders, the same on every rank; unset: drawn here.
  std::optional<uint64_t> random_shuffle_seed;
  bool barrier = true;
  ReadFlags reads;
  // Where checkpoints go (not owned); null: checkpoint.checkpoint_folder, opened here.
  storage::Storage* checkpoint_storage = nullptr;
  std::function<void(const Progress&)> progress;
  std::function<void(const std::string&)> log;  // one line per event (epoch end, checkpoint)
  // The time series: a row every interval_s (0: none), each also handed to on_row (on the
  // sampler's thread) as it is taken.
  double interval_s = 1;
  std::function<void(const metrics::TimeseriesRow&)> on_row;
  // This rank's record so far, once the reads are set up and after each preload, epoch and
  // evaluation (on the run's thread): a run killed later keeps what it measured until then.
  std::function<void(const metrics::RunRecord&)> on_phase;
};

metrics::RunRecord RunEmulatedTraining(const config::WorkloadConfig& config,
                                       const dataset::DatasetFiles& dataset,
                                       storage::Storage& storage, dist::Communicator& communicator,
                                       const EmulationOptions& options);

}  // namespace trainbench::sim
