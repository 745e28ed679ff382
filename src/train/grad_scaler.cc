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
  // One multi-tensor kernel (CUDA's or the CPU's): unscale and check every element, as torch's
  // GradScaler does.
  at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf_, scale_.reciprocal());
}

void GradScaler::Update() {
  c10::NoGradGuard no_grad;
  // torch's own rule and kernel, still no host read.
  at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, options_.growth_factor,
                         options_.backoff_factor, options_.growth_interval);
  skipped_.add_(found_inf_);
}

bool GradScaler::LastStepFinite() const { return found_inf_.item<float>() == 0; }
double GradScaler::scale() const { return scale_.item<double>(); }
int64_t GradScaler::skipped_steps() const { return static_cast<int64_t>(skipped_.item<double>()); }

}  // namespace trainbench::train
