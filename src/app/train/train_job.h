// `trainbench train`'s job: real training through the LibTorch plugin (train_plugin.h),
// keeping a results folder with --output (<output>/train-<UTC stamp>/: summary.json with
// the envelope and the radix_metrics line's figures, timeseries.csv of images/s and data
// wait), staging a remote dataset first with --stage-to (staged_train_job.h), or timing a
// workload's batch to calibrate `run`'s computation_time (--calibrate).
// Not thread-safe: one per process.
#pragma once

#include <exception>
#include <string>

#include "app/train/staged_train_job.h"
#include "train/trainer.h"

namespace trainbench::app {

struct TrainJobOptions {
  train::TrainOptions train;
  StagedTrainOptions staged;  // stage_to empty: no staging
  std::string calibrate;      // a workload: time its batch instead of training
  // The flags the user gave, not defaulted: what goes together is checked by them.
  struct Given {
    bool output = false;           // --output (results are kept; always with --stage-to)
    bool batch_size = false;       // calibration times the workload's own
    bool steps_per_epoch = false;  // calibration keeps it
    bool stage_streams = false;    // goes with --stage-to
  } given;
  bool progress = true;  // the live status block on a terminal (--no-progress: none)
};

// What to print after the training's own progress: text (a staged job's account table, or a
// calibration's figures, or the PyTorch scripts' exact line when there is no CUDA and no
// --allow-cpu, exit_code 1), the results folder and the final line.
struct TrainJobOutcome : JobReport {
  std::exception_ptr failure;  // the training's, rethrown once the rest is shown
};

// Throws UsageError (before any work) for flags that do not go together, an --interval out of
// range, and a --save, --op-log or --output place that cannot be written.
TrainJobOutcome TrainJob(TrainJobOptions options);

}  // namespace trainbench::app
