#include "train/fused_batch_norm.h"

#if defined(TRAINBENCH_FUSED_BN_CUDA)
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <torch/autograd.h>

#include "train/cuda/bn_relu_kernels.h"
#endif

namespace trainbench::train {

namespace {

at::Tensor Unfused(torch::nn::BatchNorm2d& bn, const at::Tensor& x, const at::Tensor& residual) {
  at::Tensor y = bn->forward(x);
  if (residual.defined()) y += residual;
  return y.relu_();
}

}  // namespace

#if defined(TRAINBENCH_FUSED_BN_CUDA)

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

bool ToDType(at::ScalarType type, cuda::DType& out) {
  switch (type) {
    case at::kFloat:
      out = cuda::DType::kFloat;
      return true;
    case at::kHalf:
      out = cuda::DType::kHalf;
      return true;
    case at::kBFloat16:
      out = cuda::DType::kBFloat16;
      return true;
    default:
      return false;
  }
}

int64_t Channels(const at::Tensor& x) { return x.size(1); }
int64_t Rows(const at::Tensor& x) { return x.numel() / x.size(1); }

class BnReluFunction : public torch::autograd::Function<BnReluFunction> {
 public:
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& residual,
                            const at::Tensor& weight, const at::Tensor& bias,
                            at::Tensor running_mean, at::Tensor running_var, double momentum,
                            double eps) {
    cuda::DType dtype = cuda::DType::kFloat;
    ToDType(x.scalar_type(), dtype);
    const int64_t c = Channels(x), rows = Rows(x);
    const auto floats = x.options().dtype(at::kFloat).memory_format(at::MemoryFormat::Contiguous);
    at::Tensor y = at::empty_like(x);
    at::Tensor stats = at::empty({4, c}, floats);  // mean, invstd, scale, shift
    at::Tensor partials = at::empty({cuda::BnPartialFloats(rows, c)}, floats);
    at::Tensor mask = at::empty({cuda::BnMaskBytes(dtype, rows, c)}, x.options().dtype(at::kByte));
    const bool has_residual = residual.numel() != 0;
    cuda::BnReluForward(
        dtype, x.data_ptr(), has_residual ? residual.data_ptr() : nullptr, y.data_ptr(),
        mask.data_ptr<uint8_t>(), rows, c, weight.data_ptr<float>(), bias.data_ptr<float>(),
        running_mean.data_ptr<float>(), running_var.data_ptr<float>(), momentum, eps,
        stats[0].data_ptr<float>(), stats[1].data_ptr<float>(), stats[2].data_ptr<float>(),
        stats[3].data_ptr<float>(), partials.data_ptr<float>(), at::cuda::getCurrentCUDAStream());
    C10_CUDA_CHECK(cudaGetLastError());
    // The mask, not y: the backward then reads 1/16 of y's bytes (y stays alive anyway as
    // the next convolution's input, so saving it cost no memory, only the read).
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
    cuda::DType dtype = cuda::DType::kFloat;
    ToDType(x.scalar_type(), dtype);
    const at::Tensor dy = grads[0].to(x.scalar_type()).contiguous(at::MemoryFormat::ChannelsLast);
    const int64_t c = Channels(x), rows = Rows(x);
    const auto floats = x.options().dtype(at::kFloat).memory_format(at::MemoryFormat::Contiguous);
    at::Tensor dx = at::empty_like(x);
    at::Tensor dz = residual ? at::empty_like(x) : at::Tensor();
    at::Tensor grad_weight = at::empty({c}, floats), grad_bias = at::empty({c}, floats);
    at::Tensor coef = at::empty({3 * c}, floats);
    at::Tensor partials = at::empty({cuda::BnPartialFloats(rows, c)}, floats);
    cuda::BnReluBackward(dtype, dy.data_ptr(), x.data_ptr(), mask.data_ptr<uint8_t>(),
                         dx.data_ptr(), residual ? dz.data_ptr() : nullptr, rows, c,
                         weight.data_ptr<float>(), stats[0].data_ptr<float>(),
                         stats[1].data_ptr<float>(), grad_weight.data_ptr<float>(),
                         grad_bias.data_ptr<float>(), coef.data_ptr<float>(),
                         partials.data_ptr<float>(), at::cuda::getCurrentCUDAStream());
    C10_CUDA_CHECK(cudaGetLastError());
    return {dx, dz, grad_weight, grad_bias, at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

// The kernels take NHWC memory of a supported type, float affine parameters, batch
// statistics with a momentum, and channels a multiple of their vector width.
bool Fusable(torch::nn::BatchNorm2d& bn, const at::Tensor& x, const at::Tensor& residual) {
  cuda::DType dtype = cuda::DType::kFloat;
  const auto& o = bn->options;
  if (!bn->is_training() || !o.affine() || !o.track_running_stats() || !o.momentum()) return false;
  if (!x.is_cuda() || x.dim() != 4 || !x.is_contiguous(at::MemoryFormat::ChannelsLast))
    return false;
  if (!ToDType(x.scalar_type(), dtype) || cuda::BnReluUnsupported(dtype, x.size(1))) return false;
  if (bn->weight.scalar_type() != at::kFloat || bn->running_mean.scalar_type() != at::kFloat)
    return false;
  return !residual.defined() ||
         (residual.scalar_type() == x.scalar_type() && residual.sizes() == x.sizes() &&
          residual.is_contiguous(at::MemoryFormat::ChannelsLast));
}

}  // namespace

bool FusedBatchNormAvailable() { return true; }

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

#else

bool FusedBatchNormAvailable() { return false; }

at::Tensor BatchNormRelu(torch::nn::BatchNorm2d& bn, const at::Tensor& x,
                         const at::Tensor& residual, bool /*fused*/) {
  return Unfused(bn, x, residual);
}

#endif

}  // namespace trainbench::train
