// What a real training's data loading would cost per step on the storage a replay of its
// op-log ran against: `replay TRAIN_OPLOG --target X --train-results DIR`. The training's
// results (its summary.json) give the batch, the step time and the share of it spent waiting
// for data, hence its compute per step; the replay gives each GET's time on X. The means
// (EstimateStepIo: a step takes the longer of its compute and a batch's loading at the
// replayed rate) are kept beside the prediction, which simulates the training's loader over
// the replayed GETs (ops/loader_pipeline.h, ApplyPipeline): what a step takes over its
// compute is the time lost to I/O. Pure functions but for the file read.
#pragma once

#include <cstdint>
#include <string>

#include "ops/loader_pipeline.h"

namespace trainbench::ops {

struct TrainingShape {
  std::string path;         // the summary.json read
  uint64_t batch_size = 0;  // per process
  uint64_t steps = 0;       // timed steps of each process
  double elapsed_s = 0;     // the timed steps' wall time
  double data_wait_share = 0;
  int world_size = 1;
  unsigned workers = 0;   // the data loader's (0: not recorded)
  unsigned io_depth = 0;  // its reads in flight per worker (0: not recorded, or the default)
};

// Reads a train (or staged train) results folder, or its summary.json. Throws UsageError
// naming the file and the missing key when it is not a training's results.
TrainingShape ReadTrainingShape(const std::string& path);

struct StepIoEstimate {
  double step_s = 0;        // the training's mean step
  double data_wait_s = 0;   // of it, waiting for data (as measured)
  double compute_s = 0;     // the step without the wait
  double images_per_s = 0;  // per process, from the replay: GETs over its span over ranks
  double load_s = 0;        // a batch's loading at that rate
  double mean_step_s = 0;   // max(compute, load): the means' step
  // The prediction: the means' (model "mean") until ApplyPipeline puts the simulated
  // loader's in its place (model "pipeline").
  std::string model = "mean";
  double predicted_step_s = 0;
  double lost_s = 0;                  // predicted step - compute: time per step lost to I/O
  double lost_share = 0;              // of the predicted step
  double predicted_images_per_s = 0;  // per process
  double first_batch_wait_s = 0;      // pipeline: the first step's wait
  LoaderShape loader;                 // pipeline: the loader simulated
  PipelineEstimate pipeline;          // pipeline: its figures
};

// `gets` GETs replayed in `seconds` by `ranks` processes.
StepIoEstimate EstimateStepIo(const TrainingShape& training, uint64_t gets, double seconds,
                              int ranks);

// The loader to simulate: the training's workers and reads in flight as its results recorded
// them, else as its op-log shows them (`run`); its compute per step; its timed steps.
LoaderShape LoaderShapeOf(const TrainingShape& training, const LoaderRun& run);

// Puts the simulated loader's figures (SimulateLoader over `loader`) in the prediction's place;
// nothing when it simulated no batch.
void ApplyPipeline(StepIoEstimate& e, const LoaderShape& loader, const PipelineEstimate& p);

}  // namespace trainbench::ops
