#include "train/grad_scaler.h"

#include <ATen/ATen.h>

#include <cmath>

namespace trainbench::train {

GradScaler::GradScaler(const GradScalerOptions& options)
    : options_(options), scale_(options.initial_scale) {}

at::Tensor GradScaler::Scale(const at::Tensor& loss) const { return loss * scale_; }

bool GradScaler::Unscale(const std::vector<at::Tensor>& parameters) {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> grads;
  for (const auto& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return true;
  at::_foreach_mul_(grads, 1.0 / scale_);
  // One device-to-host read for all gradients: an inf or NaN anywhere makes the sum of sums
  // non-finite (summed in double, so large finite gradients cannot overflow it).
  // torch's GradScaler reads its found_inf flag once per step too.
  std::vector<at::Tensor> sums;
  sums.reserve(grads.size());
  for (const auto& g : grads) sums.push_back(g.sum(at::kDouble));
  return std::isfinite(at::stack(sums).sum().item<double>());
}

void GradScaler::Update(bool finite) {
  if (!finite) {
    scale_ *= options_.backoff_factor;
    good_steps_ = 0;
    ++skipped_;
    return;
  }
  if (++good_steps_ >= options_.growth_interval) {
    scale_ *= options_.growth_factor;
    good_steps_ = 0;
  }
}

}  // namespace trainbench::train
