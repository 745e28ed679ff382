// Where training batches come from: synthetic tensors made once on the device (the compute
// benchmark: no data path at all), or decoded images (image_loader.h). The trainer times how
// long Next() blocks, which is the share of a step spent waiting for data.
// Not thread-safe: Next() is called by the training thread only.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <memory>
#include <string>

namespace trainbench::train {

struct Batch {
  at::Tensor images;  // float [batch, 3, size, size]; channels-last strides when asked
  at::Tensor labels;  // int64 [batch]
};

class BatchSource {
 public:
  virtual ~BatchSource() = default;
  // The next batch. Tensors may be on the CPU (pinned when the device is CUDA) or already on
  // the device; the trainer moves them with a non-blocking copy.
  virtual Batch Next() = 0;
};

struct SyntheticOptions {
  int64_t batch_size = 128;
  int64_t image_size = 224;
  int64_t num_classes = 1000;
  bool channels_last = false;
  uint64_t seed = 123;
  int rank = 0;  // this process's share of a global batch of batch_size x world_size
  int world_size = 1;
};

// One random batch (normal images, uniform labels) created on `device` and returned every
// step, so the loop measures compute only. Across processes each takes its slice of the
// same global batch, so the data is the same whatever the process count.
std::unique_ptr<BatchSource> MakeSyntheticSource(const SyntheticOptions& options,
                                                 const c10::Device& device);

}  // namespace trainbench::train
