// Turns a batch as the loaders deliver it into what the model takes: decoded images arrive
// as uint8 RGB, batch x size x size x 3 (a quarter of the bytes of float32 to copy to the
// GPU), and are normalised with ImageNet's mean and std on the device, into NCHW floats with
// channels-last strides or contiguous. Float batches (synthetic data) pass through.
// Not thread-safe: used by the training thread (also inside CUDA graph capture).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace trainbench::train {

class ModelInput {
 public:
  ModelInput(const c10::Device& device, bool channels_last);
  at::Tensor operator()(const at::Tensor& images) const;

 private:
  bool channels_last_;
  at::Tensor mean_;     // [1, 3, 1, 1], 0..255 units
  at::Tensor inv_std_;  // [1, 3, 1, 1]
};

}  // namespace trainbench::train
