#include "train/cpu/widened_conv.h"

#include <ATen/autocast_mode.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/nn/functional/conv.h>

namespace trainbench::train::cpu {

bool WidensBf16Convolutions() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  // oneDNN's bf16 convolutions need AVX-512 (F, BW, VL, DQ: its avx512_core).
  static const bool widen =
      !(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"));
  return widen;
#else
  return false;
#endif
}

at::Tensor Convolve(torch::nn::Conv2dImpl& conv, const at::Tensor& x) {
  if (!x.is_cpu() || !at::autocast::is_autocast_enabled(at::kCPU) ||
      at::autocast::get_autocast_dtype(at::kCPU) != at::kBFloat16 || !WidensBf16Convolutions())
    return conv.forward(x);
  const c10::impl::ExcludeDispatchKeyGuard no_autocast(c10::DispatchKey::AutocastCPU);
  const auto& o = conv.options;
  const at::Tensor input = x.to(at::kBFloat16).to(at::kFloat);
  const at::Tensor weight = conv.weight.to(at::kBFloat16).to(at::kFloat);
  const at::Tensor bias =
      conv.bias.defined() ? conv.bias.to(at::kBFloat16).to(at::kFloat) : at::Tensor();
  const auto& padding = std::get<torch::ExpandingArray<2>>(o.padding());
  return at::conv2d(input, weight, bias, *o.stride(), *padding, *o.dilation(), o.groups())
      .to(at::kBFloat16);
}

}  // namespace trainbench::train::cpu
