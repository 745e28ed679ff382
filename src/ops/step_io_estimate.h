// What a real training's data loading would cost per step on the storage a replay of its
// op-log ran against: `replay TRAIN_OPLOG --target X --train-results DIR`. The training's
// results (its summary.json) give the batch, the step time and the share of it spent waiting
// for data; the replay gives the rate at which images come from X at the loader's
// concurrency. The loader reads ahead while a step computes, so a step takes the longer of
// its compute and the batch's loading: what is over the compute is the time lost to I/O.
// Pure functions but for the file read.
#pragma once

#include <cstdint>
#include <string>

namespace trainbench::ops {

struct TrainingShape {
  std::string path;         // the summary.json read
  uint64_t batch_size = 0;  // per process
  uint64_t steps = 0;       // timed steps of each process
  double elapsed_s = 0;     // the timed steps' wall time
  double data_wait_share = 0;
  int world_size = 1;
  unsigned workers = 0;  // the data loader's (0: not recorded)
};

// Reads a train (or staged train) results folder, or its summary.json. Throws UsageError
// naming the file and the missing key when it is not a training's results.
TrainingShape ReadTrainingShape(const std::string& path);

struct StepIoEstimate {
  double step_s = 0;                  // the training's mean step
  double data_wait_s = 0;             // of it, waiting for data (as measured)
  double compute_s = 0;               // the step without the wait
  double images_per_s = 0;            // per process, from the replay: GETs over its span over ranks
  double load_s = 0;                  // a batch's loading at that rate
  double predicted_step_s = 0;        // max(compute, load)
  double lost_s = 0;                  // predicted step - compute: time per step lost to I/O
  double predicted_images_per_s = 0;  // per process
};

// `gets` GETs replayed in `seconds` by `ranks` processes.
StepIoEstimate EstimateStepIo(const TrainingShape& training, uint64_t gets, double seconds,
                              int ranks);

}  // namespace trainbench::ops
