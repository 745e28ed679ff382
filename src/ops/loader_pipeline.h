// A training's data loader simulated over its op-log's GETs, each taking the time its replay
// took: what `replay --train-results` predicts a step from. Means miss what a real training
// meets where storage delivers about the demand: its first step waits for a whole batch with
// nothing read, and a batch slower than the compute stalls its step while faster ones bank at
// most the loader's prefetch depth ahead. So the loader's pipeline is played out batch by
// batch, as train's loader (train/image_loader.h) runs it:
//   - a batch is `batch_size` consecutive GETs of one loader worker (the op-log's `thread`:
//     each worker reads through a queue of its own), taken by the training in the order the
//     batches began;
//   - a free worker claims the next batch once fewer than `prefetch` batches are claimed and
//     not yet taken by a step (train: 2 per worker, PyTorch's prefetch_factor), and reads it
//     with `io_depth` reads in flight, each slot reading the batch's next GET once its last
//     one arrived and was held `hold_s` (the worker's decode before it reads again);
//   - each step takes its batch once it is ready and computes `compute_s`; the first step
//     waits for the first batch.
// Pure functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

namespace trainbench::ops {

// One GET of the training's op-log, in the order the GETs started.
struct LoggedGet {
  uint32_t thread = 0;  // the loader worker: the op-log's (client, thread), numbered densely
  int64_t start_ns = 0, end_ns = 0;  // in the training
  float replayed_s = NAN;            // how long its replay took; NaN: not replayed
};

// What the op-log tells of the training's loader, and its GETs' replayed times batch by
// batch in the order the training took the batches. A float per GET.
struct LoaderRun {
  std::vector<float> seconds;   // replayed
  std::vector<size_t> ends;     // each batch's end in `seconds`
  unsigned workers = 0;         // loader threads that read
  unsigned most_in_flight = 0;  // most GETs of one worker in flight at once
  // Per image, a worker's time between a GET's end and its next GET of the same batch, where
  // one read is in flight (the decode); 0 otherwise.
  double hold_s = 0;
};

// `gets` in the order they started. A worker's GETs after its first one not replayed (an
// interrupted replay) are left out. Assumes every GET is a batch's image: an image that did
// not decode and was read again in its place (train --on-bad-image skip) shifts the batches.
LoaderRun ReadLoaderRun(std::span<const LoggedGet> gets, uint64_t batch_size);

struct LoaderShape {
  unsigned workers = 1;
  unsigned io_depth = 1;     // reads in flight per worker, within its batch
  unsigned prefetch = 0;     // batches claimed ahead of the steps; 0: 2 per worker
  double compute_s = 0;      // a step's time once it has its batch
  double hold_s = 0;         // see LoaderRun::hold_s
  uint64_t timed_steps = 0;  // the training's timed steps, the last ones (0: every batch)
};

struct PipelineEstimate {
  uint64_t gets = 0;  // simulated
  uint64_t batches = 0;
  uint64_t timed_steps = 0;       // of them, the timed ones
  double seconds = 0;             // the timed steps' simulated time
  double step_s = 0;              // per timed step
  double lost_s = 0;              // step_s - compute: per step, lost to I/O
  double images_per_s = 0;        // the timed steps' images over their time
  double first_batch_wait_s = 0;  // the first step's wait, with nothing read before it
  double load_s = 0;              // a worker's mean time to read a batch
};

PipelineEstimate SimulateLoader(const LoaderRun& run, const LoaderShape& shape);

// As JSON: the ranks of a replay gather each one's simulated loader.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LoaderShape, workers, io_depth, prefetch, compute_s, hold_s,
                                   timed_steps)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PipelineEstimate, gets, batches, timed_steps, seconds, step_s,
                                   lost_s, images_per_s, first_batch_wait_s, load_s)

}  // namespace trainbench::ops
