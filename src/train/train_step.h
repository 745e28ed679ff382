// One training step as a unit that can be run eagerly or captured once in a CUDA graph:
// normalise the batch on the device, forward under autocast, loss, backward (scaled for
// fp16), SGD update. Nothing in it reads a value back to the host, so consecutive steps
// queue up on the device without waiting for each other.
// Not thread-safe: used by the training thread.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "train/data_parallel.h"
#include "train/device.h"
#include "train/grad_scaler.h"
#include "train/model_input.h"
#include "train/resnet.h"
#include "train/sgd.h"

namespace trainbench::train {

class TrainStep {
 public:
  // `scaler` is used for fp16 only; `data_parallel` (may be null) averages gradients over
  // processes after backward. All must outlive the step.
  TrainStep(ResNet& model, Sgd& optimizer, GradScaler& scaler, const c10::Device& device,
            Precision precision, bool channels_last, DataParallel* data_parallel = nullptr);

  // Enqueues a step on `images` (uint8 NHWC or float NCHW) and `labels`, both on the
  // device; returns the loss tensor, on the device and not yet read.
  at::Tensor Run(const at::Tensor& images, const at::Tensor& labels);

 private:
  ResNet& model_;
  Sgd& optimizer_;
  GradScaler& scaler_;
  c10::Device device_;
  Precision precision_;
  ModelInput input_;
  DataParallel* data_parallel_;
};

}  // namespace trainbench::train
