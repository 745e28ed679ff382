// bf16 convolutions on a CPU whose oneDNN has none (x86-64 without AVX-512: this project's
// AVX2 build machine). There LibTorch's bf16 convolution falls back to im2col and a scalar
// bf16 GEMM (at::native::cpublas, 95% of a bf16 step in perf, 2026-11-29: 34 s a batch-8
// step against 2 s in fp32). Here such a convolution is computed by oneDNN's fp32 kernels
// on the same bf16 values: the input and the weight are rounded to bf16 as autocast
// rounds them, widened (exactly) to fp32, convolved with fp32 accumulation (as LibTorch's
// bf16 GEMM accumulates), and the output rounded to bf16; backward, the casts round the
// input's and the weight's gradients to bf16 as a bf16 convolution's are. Only the order of
// the accumulation differs from a bf16 convolution. Elsewhere (AVX-512, Arm, a GPU, not
// autocast bf16) it is the module's own forward.
// Thread-compatible: as the module it runs.
#pragma once

#include <torch/nn/modules/conv.h>

namespace trainbench::train::cpu {

// Whether this CPU's bf16 convolutions are computed as above.
bool WidensBf16Convolutions();

// conv(x), through fp32 kernels where the above applies.
at::Tensor Convolve(torch::nn::Conv2dImpl& conv, const at::Tensor& x);

}  // namespace trainbench::train::cpu
