#include "train/sgd.h"

#include <ATen/ATen.h>

namespace trainbench::train {

Sgd::Sgd(std::vector<at::Tensor> parameters, const SgdOptions& options)
    : parameters_(std::move(parameters)), options_(options) {}

void Sgd::ZeroGrad() {
  for (auto& p : parameters_) p.mutable_grad() = at::Tensor();
}

void Sgd::Step() {
  // Updates are not part of the graph.
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> params, grads;
  params.reserve(parameters_.size());
  grads.reserve(parameters_.size());
  for (auto& p : parameters_) {
    if (!p.grad().defined()) continue;
    params.push_back(p);
    grads.push_back(p.grad());
  }
  if (params.empty()) return;
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
