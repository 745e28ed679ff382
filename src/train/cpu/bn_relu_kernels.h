// CPU kernels of the fused training-mode BatchNorm + (residual add) + ReLU on channels-last
// (NHWC) activations, the same passes as cuda/bn_relu_kernels.h: the tensor is M = N*H*W
// rows of C channels, C innermost.
// Forward: per-channel sums and sums of squares over chunks of rows (float within a chunk,
// about a pivot per channel so a large mean does not cancel the variance; chunks reduced
// in double), then y = relu(x * scale + shift [+ z]) in one pass, which also writes the
// ReLU's mask, a byte per element (a quarter of y's bytes, read back instead of y).
// Backward: g = dy where the mask is set; per-channel sums of g and g * (x - mean); then
// dx = a * g - b * x + c per channel, and dz = g for the residual.
// ATen's unfused ops make the same trip in 4 passes forward (statistics, normalise, add,
// ReLU) and 4 back (ReLU's mask, 2 for batch norm, plus the add's gradient copy): on a CPU
// these passes run at memory bandwidth, so each one saved is its whole time.
// Raw pointers, no autograd; threads through at::parallel_for.
// Thread-safety: each call uses the intra-op pool; buffers belong to the caller.
#pragma once

#include <cstdint>

namespace trainbench::train::cpu {

enum class DType { kFloat, kBFloat16 };

// Floats of scratch the caller allocates for one call: partials [2 * chunks * C].
int64_t BnPartialFloats(int64_t rows, int64_t channels);

// Bytes of the ReLU mask the forward writes and the backward reads: one per element.
int64_t BnMaskBytes(int64_t rows, int64_t channels);

// Forward. `mean`, `invstd` (saved for backward), `scale` and `shift` are [C] floats;
// running_mean/var are updated with `momentum` (unbiased variance, as PyTorch does).
void BnReluForward(DType dtype, const void* x, const void* z, void* y, uint8_t* mask, int64_t rows,
                   int64_t channels, const float* weight, const float* bias, float* running_mean,
                   float* running_var, double momentum, double eps, float* mean, float* invstd,
                   float* scale, float* shift, float* partials);

// Backward, from the forward's x and mask. dz may be null (no residual). grad_weight and
// grad_bias are [C] floats; `coef` is [3 * C] floats of scratch.
void BnReluBackward(DType dtype, const void* dy, const void* x, const uint8_t* mask, void* dx,
                    void* dz, int64_t rows, int64_t channels, const float* weight,
                    const float* mean, const float* invstd, float* grad_weight, float* grad_bias,
                    float* coef, float* partials);

// How many of the intra-op pool's threads the kernels' passes run on: at::parallel_for here, a
// header template, runs on one thread where this file was compiled without LibTorch's
// OpenMP (the other threads then wait: 2026-11-29, 14% of a batch-8 step). A probe, as the
// passes split their work.
int BnKernelThreads();

// Why the shapes cannot be fused (channels not a multiple of the vector width), or null.
const char* BnReluUnsupported(int64_t channels);

}  // namespace trainbench::train::cpu
