// Dynamic loss scaling for fp16 training, as torch.cuda.amp.GradScaler does it: the loss is
// multiplied by a large scale so small fp16 gradients do not flush to zero; gradients are
// divided back before the update; a step whose gradients hold inf or NaN is skipped and the
// scale halved; after `growth_interval` clean steps in a row the scale doubles.
// The scale, the growth tracker and the inf/NaN flag live on the device and every operation
// is a tensor operation, so a step never waits for the host and can be captured in a CUDA
// graph; only the accessors read values back (a synchronisation).
// Not thread-safe: used by the one training loop.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <vector>

namespace trainbench::train {

struct GradScalerOptions {
  double initial_scale = 65536.0;
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int64_t growth_interval = 2000;
};

class GradScaler {
 public:
  explicit GradScaler(const c10::Device& device, const GradScalerOptions& options = {});

  at::Tensor Scale(const at::Tensor& loss) const;
  // Divides the gradients of `parameters` by the scale and sets found_inf() to 1 when any
  // is inf or NaN (then the optimizer must skip the step), else 0.
  void Unscale(const std::vector<at::Tensor>& parameters);
  // Adjusts the scale from found_inf() and counts a skipped step.
  void Update();

  const at::Tensor& found_inf() const { return found_inf_; }  // float [1] on the device
  bool LastStepFinite() const;                                // reads found_inf()
  double scale() const;                                       // reads the scale
  int64_t skipped_steps() const;                              // reads the count

 private:
  GradScalerOptions options_;
  at::Tensor scale_;           // float [1]
  at::Tensor growth_tracker_;  // int32 [1]: clean steps in a row
  at::Tensor found_inf_;       // float [1]
  at::Tensor skipped_;         // float [1]: steps skipped so far
};

}  // namespace trainbench::train
