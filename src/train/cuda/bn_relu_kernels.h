// CUDA kernels of the fused training-mode BatchNorm + (residual add) + ReLU on channels-last
// (NHWC) activations: the tensor is M = N*H*W rows of C channels, C innermost. Plain CUDA
// with raw pointers (no LibTorch headers), so nvcc compiles it quickly and alone; the
// caller (fused_batch_norm.cc) owns tensors, streams and autograd.
// Forward: per-channel sums and sums of squares over the rows (partials per row chunk,
// reduced in double), then y = relu(x * scale + shift [+ z]) in one pass, which also writes
// the ReLU's mask, one bit per element.
// Backward: g = dy where the mask is set; per-channel sums of g and g * x; then
// dx = a * g - b * x + c per channel, and dz = g for the residual.
// Thread-safety: launches on the given stream; buffers belong to the caller.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace trainbench::train::cuda {

enum class DType { kFloat, kHalf, kBFloat16 };

// Floats the caller allocates on the device for one call: partials [2 * chunks * C].
int64_t BnPartialFloats(int64_t rows, int64_t channels);

// Bytes of the ReLU mask the forward writes and the backward reads: a byte per vector of
// channels (8 for half and bfloat16, 4 for float), so the backward reads 1/16 of y's bytes
// instead of y.
int64_t BnMaskBytes(DType dtype, int64_t rows, int64_t channels);

// Forward. `mean`, `invstd` (saved for backward), `scale` and `shift` are [C] floats;
// running_mean/var are updated with `momentum` (unbiased variance, as PyTorch does).
void BnReluForward(DType dtype, const void* x, const void* z, void* y, uint8_t* mask, int64_t rows,
                   int64_t channels, const float* weight, const float* bias, float* running_mean,
                   float* running_var, double momentum, double eps, float* mean, float* invstd,
                   float* scale, float* shift, float* partials, cudaStream_t stream);

// Backward, from the forward's x and mask. dz may be null (no residual). grad_weight and grad_bias
// are [C] floats; `coef` is [3 * C] floats of scratch.
void BnReluBackward(DType dtype, const void* dy, const void* x, const uint8_t* mask, void* dx,
                    void* dz, int64_t rows, int64_t channels, const float* weight,
                    const float* mean, const float* invstd, float* grad_weight, float* grad_bias,
                    float* coef, float* partials, cudaStream_t stream);

// Why the shapes cannot be fused (channels not a multiple of the vector width), or null.
const char* BnReluUnsupported(DType dtype, int64_t channels);

}  // namespace trainbench::train::cuda
