#include "train/model_input.h"

#include <ATen/ATen.h>

namespace trainbench::train {

ModelInput::ModelInput(const c10::Device& device, bool channels_last)
    : channels_last_(channels_last) {
  const auto on = at::TensorOptions().device(device).dtype(at::kFloat);
  // torchvision's Normalize after ToTensor, in byte units: (v - 255 mean) / (255 std).
  mean_ = at::tensor({0.485f * 255, 0.456f * 255, 0.406f * 255}).to(on).view({1, 3, 1, 1});
  inv_std_ = at::tensor({1 / (0.229f * 255), 1 / (0.224f * 255), 1 / (0.225f * 255)})
                 .to(on)
                 .view({1, 3, 1, 1});
}

at::Tensor ModelInput::operator()(const at::Tensor& images) const {
  if (images.scalar_type() != at::kByte) return images;
  // NHWC bytes viewed as NCHW are channels-last already; the float copy keeps those strides.
  at::Tensor x = images.permute({0, 3, 1, 2}).to(at::kFloat);
  x.sub_(mean_).mul_(inv_std_);
  return channels_last_ ? x : x.contiguous();
}

}  // namespace trainbench::train
