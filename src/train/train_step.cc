#include "train/train_step.h"

#include <ATen/ATen.h>

namespace trainbench::train {

TrainStep::TrainStep(ResNet& model, Sgd& optimizer, GradScaler& scaler, const c10::Device& device,
                     Precision precision, bool channels_last, DataParallel* data_parallel)
    : model_(model),
      optimizer_(optimizer),
      scaler_(scaler),
      device_(device),
      precision_(precision),
      input_(device, channels_last),
      data_parallel_(data_parallel) {}

at::Tensor TrainStep::Run(const at::Tensor& images, const at::Tensor& labels) {
  const at::Tensor x = input_(images);
  at::Tensor loss;
  {
    AutocastScope autocast(device_, precision_);
    loss = at::cross_entropy_loss(model_->forward(x), labels);
  }
  // Bucketed gradients are views that backward accumulates into: zeroed, not dropped.
  if (data_parallel_ && data_parallel_->bucketed())
    data_parallel_->ZeroGradients();
  else
    optimizer_.ZeroGrad();
  if (precision_ == Precision::kFp16) {
    scaler_.Scale(loss).backward();
    if (data_parallel_) data_parallel_->AverageGradients(optimizer_.parameters());
    scaler_.Unscale(optimizer_.parameters());
    optimizer_.Step(scaler_.found_inf());
    scaler_.Update();
  } else {
    loss.backward();
    if (data_parallel_) data_parallel_->AverageGradients(optimizer_.parameters());
    optimizer_.Step();
  }
  return loss.detach();
}

}  // namespace trainbench::train
