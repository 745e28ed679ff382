// Dynamic loss scaling for fp16 training, as torch.cuda.amp.GradScaler does it: the loss is
// multiplied by a large scale so small fp16 gradients do not flush to zero; gradients are
// divided back before the update; a step whose gradients hold inf or NaN is skipped and the
// scale halved; after `growth_interval` clean steps in a row the scale doubles.
// Not thread-safe: used by the one training loop.
#pragma once

#include <ATen/core/Tensor.h>

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
  explicit GradScaler(const GradScalerOptions& options = {});

  at::Tensor Scale(const at::Tensor& loss) const;
  // Divides the gradients of `parameters` by the scale; false when any is inf or NaN
  // (then the optimizer step must be skipped).
  bool Unscale(const std::vector<at::Tensor>& parameters);
  // Adjusts the scale after a step; `finite` is what Unscale returned.
  void Update(bool finite);

  double scale() const { return scale_; }
  int64_t skipped_steps() const { return skipped_; }

 private:
  GradScalerOptions options_;
  double scale_;
  int64_t good_steps_ = 0;
  int64_t skipped_ = 0;
};

}  // namespace trainbench::train
