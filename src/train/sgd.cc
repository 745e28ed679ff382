#include "train/sgd.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

namespace trainbench::train {

Sgd::Sgd(std::vector<at::Tensor> parameters, const SgdOptions& options)
    : parameters_(std::move(parameters)), options_(options) {}

void Sgd::ZeroGrad() {
  for (auto& p : parameters_) p.mutable_grad() = at::Tensor();
}

bool Sgd::fused() const {
  // torch._fused_sgd_, SGD(fused=True)'s kernel, has CUDA and CPU implementations.
  if (parameters_.empty()) return false;
  const at::Tensor& p = parameters_.front();
  return p.is_cuda() || p.is_cpu();
}

void Sgd::Step(const at::Tensor& found_inf) {
  // Updates are not part of the graph.
  c10::NoGradGuard no_grad;
  std::vector<at::Tensor> params, grads;
  params.reserve(parameters_.size());
  grads.reserve(parameters_.size());
  for (auto& p : parameters_) {
    if (!p.grad().defined()) continue;
    params.push_back(p);
    grads.push_back(p.grad());
  }
  if (params.empty()) return;
  if (fused()) {
    const bool first = momentum_.size() != params.size();
    if (first) {
      momentum_.clear();
      for (auto& p : params) momentum_.push_back(at::zeros_like(p));
    }
    at::_fused_sgd_(params, grads, momentum_, options_.weight_decay, options_.momentum, options_.lr,
                    /*dampening=*/0, /*nesterov=*/false, /*maximize=*/false,
                    /*is_first_step=*/first, /*grad_scale=*/std::nullopt,
                    found_inf.defined() ? std::optional<at::Tensor>(found_inf) : std::nullopt);
    return;
  }
  if (found_inf.defined() && found_inf.item<float>() != 0) return;
  if (options_.weight_decay != 0) at::_foreach_add_(grads, params, options_.weight_decay);
  if (options_.momentum != 0) {
    if (momentum_.size() != params.size()) {
      momentum_.clear();
      for (auto& g : grads) momentum_.push_back(g.clone());
    } else {
      at::_foreach_mul_(momentum_, options_.momentum);
      at::_foreach_add_(momentum_, grads);
    }
    at::_foreach_add_(params, momentum_, -options_.lr);
  } else {
    at::_foreach_add_(params, grads, -options_.lr);
  }
}

}  // namespace trainbench::train
