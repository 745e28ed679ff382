#include "train/fused_batch_norm.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include "train/cpu/bn_relu_kernels.h"

#if defined(TRAINBENCH_FUSED_BN_CUDA)
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

#include "train/cuda/bn_relu_kernels.h"
#endif

namespace trainbench::train {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

at::Tensor Unfused(torch::nn::BatchNorm2d& bn, const at::Tensor& x, const at::Tensor& residual) {
  at::Tensor y = bn->forward(x);
  if (residual.defined()) y += residual;
  return y.relu_();
}

int64_t Channels(const at::Tensor& x) { return x.size(1); }
int64_t Rows(const at::Tensor& x) { return x.numel() / x.size(1); }

// The kernels of x's device, behind one interface: the autograd function below is the same
// on both, only the passes' launches differ.
cpu::DType CpuType(const at::Tensor& x) {
  return x.scalar_type() == at::kBFloat16 ? cpu::DType::kBFloat16 : cpu::DType::kFloat;
}

#if defined(TRAINBENCH_FUSED_BN_CUDA)
cuda::DType CudaType(const at::Tensor& x) {
  switch (x.scalar_type()) {
    case at::kHalf:
      return cuda::DType::kHalf;
    case at::kBFloat16:
      return cuda::DType::kBFloat16;
    default:
      return cuda::DType::kFloat;
  }
}
#endif

// Whether x's device has kernels for x's type and channels.
bool KernelsTake(const at::Tensor& x) {
  const at::ScalarType type = x.scalar_type();
  if (x.is_cpu())
    return (type == at::kFloat || type == at::kBFloat16) &&
           cpu::BnReluUnsupported(Channels(x)) == nullptr;
#if defined(TRAINBENCH_FUSED_BN_CUDA)
  if (x.is_cuda())
    return (type == at::kFloat || type == at::kHalf || type == at::kBFloat16) &&
           cuda::BnReluUnsupported(CudaType(x), Channels(x)) == nullptr;
#endif
  return false;
}

int64_t MaskBytes(const at::Tensor& x) {
#if defined(TRAINBENCH_FUSED_BN_CUDA)
  if (x.is_cuda()) return cuda::BnMaskBytes(CudaType(x), Rows(x), Channels(x));
#endif
  return cpu::BnMaskBytes(Rows(x), Channels(x));
}

int64_t PartialFloats(const at::Tensor& x) {
#if defined(TRAINBENCH_FUSED_BN_CUDA)
  if (x.is_cuda()) return cuda::BnPartialFloats(Rows(x), Channels(x));
#endif
  return cpu::BnPartialFloats(Rows(x), Channels(x));
}

// Per-channel float tensors on x's device.
at::Tensor Floats(const at::Tensor& x, at::IntArrayRef sizes) {
  return at::empty(sizes,
                   x.options().dtype(at::kFloat).memory_format(at::MemoryFormat::Contiguous));
}

class BnReluFunction : public torch::autograd::Function<BnReluFunction> {
 public:
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& residual,
                            const at::Tensor& weight, const at::Tensor& bias,
                            at::Tensor running_mean, at::Tensor running_var, double momentum,
                            double eps) {
    const int64_t c = Channels(x), rows = Rows(x);
    at::Tensor y = at::empty_like(x);
    at::Tensor stats = Floats(x, {4, c});  // mean, invstd, scale, shift
    at::Tensor partials = Floats(x, {PartialFloats(x)});
    at::Tensor mask = at::empty({MaskBytes(x)}, x.options().dtype(at::kByte));
    const bool has_residual = residual.numel() != 0;
    const void* z = has_residual ? residual.data_ptr() : nullptr;
    float* s = stats.data_ptr<float>();
#if defined(TRAINBENCH_FUSED_BN_CUDA)
    if (x.is_cuda()) {
      cuda::BnReluForward(CudaType(x), x.data_ptr(), z, y.data_ptr(), mask.data_ptr<uint8_t>(),
                          rows, c, weight.data_ptr<float>(), bias.data_ptr<float>(),
                          running_mean.data_ptr<float>(), running_var.data_ptr<float>(), momentum,
                          eps, s, s + c, s + 2 * c, s + 3 * c, partials.data_ptr<float>(),
                          at::cuda::getCurrentCUDAStream());
      C10_CUDA_CHECK(cudaGetLastError());
    }
#endif
    if (x.is_cpu())
      cpu::BnReluForward(CpuType(x), x.data_ptr(), z, y.data_ptr(), mask.data_ptr<uint8_t>(), rows,
                         c, weight.data_ptr<float>(), bias.data_ptr<float>(),
                         running_mean.data_ptr<float>(), running_var.data_ptr<float>(), momentum,
                         eps, s, s + c, s + 2 * c, s + 3 * c, partials.data_ptr<float>());
    // The mask, not y: the backward then reads a fraction of y's bytes (y stays alive anyway
    // as the next convolution's input, so saving it cost no memory, only the read).
    ctx->save_for_backward({x, weight});
    ctx->saved_data["mask"] = mask;
    ctx->saved_data["stats"] = stats;
    ctx->saved_data["residual"] = has_residual;
    return y;
  }

  static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
    const auto saved = ctx->get_saved_variables();
    const at::Tensor &x = saved[0], &weight = saved[1];
    const at::Tensor mask = ctx->saved_data["mask"].toTensor();
    const at::Tensor stats = ctx->saved_data["stats"].toTensor();
    const bool residual = ctx->saved_data["residual"].toBool();
    const at::Tensor dy = grads[0].to(x.scalar_type()).contiguous(at::MemoryFormat::ChannelsLast);
    const int64_t c = Channels(x), rows = Rows(x);
    at::Tensor dx = at::empty_like(x);
    at::Tensor dz = residual ? at::empty_like(x) : at::Tensor();
    at::Tensor grad_weight = Floats(x, {c}), grad_bias = Floats(x, {c});
    at::Tensor coef = Floats(x, {3 * c});
    at::Tensor partials = Floats(x, {PartialFloats(x)});
    void* dz_data = residual ? dz.data_ptr() : nullptr;
    const float* s = stats.data_ptr<float>();
#if defined(TRAINBENCH_FUSED_BN_CUDA)
    if (x.is_cuda()) {
      cuda::BnReluBackward(CudaType(x), dy.data_ptr(), x.data_ptr(), mask.data_ptr<uint8_t>(),
                           dx.data_ptr(), dz_data, rows, c, weight.data_ptr<float>(), s, s + c,
                           grad_weight.data_ptr<float>(), grad_bias.data_ptr<float>(),
                           coef.data_ptr<float>(), partials.data_ptr<float>(),
                           at::cuda::getCurrentCUDAStream());
      C10_CUDA_CHECK(cudaGetLastError());
    }
#endif
    if (x.is_cpu())
      cpu::BnReluBackward(CpuType(x), dy.data_ptr(), x.data_ptr(), mask.data_ptr<uint8_t>(),
                          dx.data_ptr(), dz_data, rows, c, weight.data_ptr<float>(), s, s + c,
                          grad_weight.data_ptr<float>(), grad_bias.data_ptr<float>(),
                          coef.data_ptr<float>(), partials.data_ptr<float>());
    return {dx, dz, grad_weight, grad_bias, at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

// The kernels take NHWC memory of a supported type, float affine parameters, batch
// statistics with a momentum, and channels a multiple of their vector width.
bool Fusable(torch::nn::BatchNorm2d& bn, const at::Tensor& x, const at::Tensor& residual) {
  const auto& o = bn->options;
  if (!bn->is_training() || !o.affine() || !o.track_running_stats() || !o.momentum()) return false;
  if (x.dim() != 4 || !x.is_contiguous(at::MemoryFormat::ChannelsLast) || !KernelsTake(x))
    return false;
  if (bn->weight.scalar_type() != at::kFloat || bn->running_mean.scalar_type() != at::kFloat ||
      bn->weight.device() != x.device())
    return false;
  return !residual.defined() ||
         (residual.scalar_type() == x.scalar_type() && residual.sizes() == x.sizes() &&
          residual.is_contiguous(at::MemoryFormat::ChannelsLast));
}

}  // namespace

bool FusedBatchNormAvailable(const c10::Device& device) {
#if defined(TRAINBENCH_FUSED_BN_CUDA)
  if (device.is_cuda()) return true;
#endif
  return device.is_cpu();
}

at::Tensor BatchNormRelu(torch::nn::BatchNorm2d& bn, const at::Tensor& x,
                         const at::Tensor& residual, bool fused) {
  if (!fused || !Fusable(bn, x, residual)) return Unfused(bn, x, residual);
  {
    c10::NoGradGuard no_grad;
    bn->num_batches_tracked += 1;
  }
  // Autograd needs every input defined: no residual is an empty tensor.
  const at::Tensor z = residual.defined() ? residual : at::empty({0}, x.options());
  return BnReluFunction::apply(x, z, bn->weight, bn->bias, bn->running_mean, bn->running_var,
                               *bn->options.momentum(), bn->options.eps());
}

}  // namespace trainbench::train
