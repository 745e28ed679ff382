#include "train/grad_scaler.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

namespace trainbench::train {

GradScaler::GradScaler(const c10::Device& device, const GradScalerOptions& options)
    : options_(options) {
  const auto on = at::TensorOptions().device(device);
  scale_ = at::full({1}, options.initial_scale, on.dtype(at::kFloat));
  growth_tracker_ = at::zeros({1}, on.dtype(at::kInt));
  found_inf_ = at::zeros({1}, on.dtype(at::kFloat));
  skipped_ = at::zeros({1}, on.dtype(at::kFloat));
}

at::Tensor GradScaler::Scale(const at::Tensor& loss) const {
  return loss * scale_.to(loss.dtype());
}

void GradScaler::Unscale(const std::vector<at::Tensor>& parameters) {
  c10::NoGradGuard no_grad;
  std::vector<at::Tensor> grads;
  for (const auto& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  found_inf_.zero_();
  if (grads.empty()) return;
  const at::Tensor inv_scale = scale_.reciprocal();
  if (scale_.is_cuda()) {
    // One multi-tensor kernel: unscale and check every element, as torch's GradScaler does.
    at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf_, inv_scale);
    return;
  }
  // Elsewhere (Debian's CPU LibTorch has no kernel for it): an inf or NaN anywhere makes
  // the double sum of sums non-finite; large finite gradients cannot overflow a double.
  std::vector<at::Tensor> sums;
  sums.reserve(grads.size());
  for (auto& g : grads) {
    g.mul_(inv_scale.to(g.dtype()));
    sums.push_back(g.sum(at::kDouble));
  }
  found_inf_.copy_(at::isfinite(at::stack(sums).sum()).logical_not().reshape({1}));
}

void GradScaler::Update() {
  c10::NoGradGuard no_grad;
  // Tensor arithmetic rather than torch's _amp_update_scale_, which Debian's CPU LibTorch
  // lacks: the same rule, still no host read.
  const at::Tensor found = found_inf_.gt(0);
  const at::Tensor clean = growth_tracker_ + 1;
  const at::Tensor grow = clean.ge(options_.growth_interval).logical_and(found.logical_not());
  at::Tensor next = at::where(found, scale_ * options_.backoff_factor, scale_);
  next = at::where(grow, scale_ * options_.growth_factor, next);
  scale_.copy_(next);
  growth_tracker_.copy_(at::where(found.logical_or(grow), at::zeros_like(clean), clean));
  skipped_.add_(found_inf_);
}

bool GradScaler::LastStepFinite() const { return found_inf_.item<float>() == 0; }
double GradScaler::scale() const { return scale_.item<double>(); }
int64_t GradScaler::skipped_steps() const { return static_cast<int64_t>(skipped_.item<double>()); }

}  // namespace trainbench::train
