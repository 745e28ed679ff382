#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

#include "train/cuda/bn_relu_kernels.h"

namespace trainbench::train::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kTargetBlocks = 8 * 132;  // a few waves on an H100; fine on smaller GPUs too

template <typename T>
struct Io;
template <>
struct Io<float> {
  __device__ static float Load(float v) { return v; }
  __device__ static float Store(float v) { return v; }
};
template <>
struct Io<__half> {
  __device__ static float Load(__half v) { return __half2float(v); }
  __device__ static __half Store(float v) { return __float2half_rn(v); }
};
template <>
struct Io<__nv_bfloat16> {
  __device__ static float Load(__nv_bfloat16 v) { return __bfloat162float(v); }
  __device__ static __nv_bfloat16 Store(float v) { return __float2bfloat16_rn(v); }
};

// 16 bytes of T per load and store.
template <typename T>
struct alignas(16) Vec {
  static constexpr int kSize = 16 / sizeof(T);
  T v[kSize];
};

// The launch shape of the per-channel reductions: blockDim.x threads across channel vectors,
// blockDim.y across rows; gridDim.y chunks of rows.
struct ReduceShape {
  dim3 block, grid;
  int64_t chunks, rows_per_chunk;
};

template <typename T>
ReduceShape Shape(int64_t rows, int64_t channels) {
  const int64_t vectors = channels / Vec<T>::kSize;
  ReduceShape s;
  const int tx = static_cast<int>(std::min<int64_t>(vectors, 32));
  s.block = dim3(tx, kThreads / tx);
  const int64_t grid_x = (vectors + tx - 1) / tx;
  const int64_t by_rows = (rows + s.block.y - 1) / s.block.y;
  s.chunks = std::max<int64_t>(1, std::min<int64_t>(by_rows, kTargetBlocks / grid_x));
  s.rows_per_chunk = (rows + s.chunks - 1) / s.chunks;
  s.grid = dim3(static_cast<unsigned>(grid_x), static_cast<unsigned>(s.chunks));
  return s;
}

// Per channel of this block's vectors: sums of f(row) over the chunk's rows, written to
// partials[chunk][c] and partials[chunks + chunk][c]. kBackward: a = g, b = g * x with
// g = dy where the forward's ReLU passed (bit k of the vector's mask byte); else a = x,
// b = x * x.
template <typename T, bool kBackward>
__global__ void ReduceKernel(const T* __restrict__ x, const T* __restrict__ dy,
                             const uint8_t* __restrict__ mask, int64_t rows, int64_t channels,
                             int64_t rows_per_chunk, float* __restrict__ partials) {
  constexpr int kV = Vec<T>::kSize;
  extern __shared__ float shared[];  // [2][blockDim.y][blockDim.x * kV]
  const int64_t vector = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool active = vector * kV < channels;
  float a[kV], b[kV];
#pragma unroll
  for (int k = 0; k < kV; ++k) a[k] = b[k] = 0.f;
  const int64_t begin = static_cast<int64_t>(blockIdx.y) * rows_per_chunk;
  const int64_t end = min(rows, begin + rows_per_chunk);
  if (active) {
    const T* xp = x + vector * kV;
    const T* dp = kBackward ? dy + vector * kV : nullptr;
    const int64_t vectors = channels / kV;
    const uint8_t* mp = kBackward ? mask + vector : nullptr;
    auto accumulate = [&](const Vec<T>& xv, const Vec<T>& dv, uint8_t bits) {
#pragma unroll
      for (int k = 0; k < kV; ++k) {
        const float v = Io<T>::Load(xv.v[k]);
        if constexpr (kBackward) {
          const float g = (bits >> k) & 1 ? Io<T>::Load(dv.v[k]) : 0.f;
          a[k] += g;
          b[k] += g * v;
        } else {
          a[k] += v;
          b[k] += v * v;
        }
      }
    };
    // kUnroll rows' loads in flight per thread before any is used: the loop is bound by
    // memory latency otherwise.
    constexpr int kUnroll = 4;
    const int64_t step = blockDim.y;
    int64_t r = begin + threadIdx.y;
    for (; r + (kUnroll - 1) * step < end; r += kUnroll * step) {
      Vec<T> xv[kUnroll], dv[kUnroll];
      uint8_t bits[kUnroll] = {};
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const int64_t at = (r + u * step) * channels;
        xv[u] = *reinterpret_cast<const Vec<T>*>(xp + at);
        if constexpr (kBackward) {
          dv[u] = *reinterpret_cast<const Vec<T>*>(dp + at);
          bits[u] = mp[(r + u * step) * vectors];
        }
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) accumulate(xv[u], dv[u], bits[u]);
    }
    for (; r < end; r += step) {
      const int64_t at = r * channels;
      Vec<T> xv = *reinterpret_cast<const Vec<T>*>(xp + at), dv;
      uint8_t bits = 0;
      if constexpr (kBackward) {
        dv = *reinterpret_cast<const Vec<T>*>(dp + at);
        bits = mp[r * vectors];
      }
      accumulate(xv, dv, bits);
    }
  }
  const int width = blockDim.x * kV;
  float* sa = shared;
  float* sb = shared + blockDim.y * width;
#pragma unroll
  for (int k = 0; k < kV; ++k) {
    sa[threadIdx.y * width + threadIdx.x * kV + k] = a[k];
    sb[threadIdx.y * width + threadIdx.x * kV + k] = b[k];
  }
  __syncthreads();
  // The block's threads then sum the rows' columns, one channel each.
  const int flat = threadIdx.y * blockDim.x + threadIdx.x;
  for (int column = flat; column < width; column += blockDim.x * blockDim.y) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * width + column;
    if (c >= channels) continue;
    float ta = 0.f, tb = 0.f;
    for (int row = 0; row < static_cast<int>(blockDim.y); ++row) {
      ta += sa[row * width + column];
      tb += sb[row * width + column];
    }
    partials[static_cast<int64_t>(blockIdx.y) * channels + c] = ta;
    partials[(static_cast<int64_t>(gridDim.y) + blockIdx.y) * channels + c] = tb;
  }
}

// The sums over chunks of both partial rows for channel blockIdx.x * 32 + threadIdx.x, in
// double: a block of 32 x 32 threads, each column of threads reading its chunks, then a
// reduction in shared memory. Returns true in the threads of row 0 that own a channel.
constexpr int kFinalizeChunks = 32;
__device__ bool SumChunks(const float* __restrict__ partials, int64_t chunks, int64_t channels,
                          double& a, double& b) {
  __shared__ double sa[kFinalizeChunks][32], sb[kFinalizeChunks][32];
  const int64_t c = static_cast<int64_t>(blockIdx.x) * 32 + threadIdx.x;
  double ta = 0, tb = 0;
  if (c < channels) {
    for (int64_t k = threadIdx.y; k < chunks; k += kFinalizeChunks) {
      ta += partials[k * channels + c];
      tb += partials[(chunks + k) * channels + c];
    }
  }
  sa[threadIdx.y][threadIdx.x] = ta;
  sb[threadIdx.y][threadIdx.x] = tb;
  __syncthreads();
  if (threadIdx.y != 0 || c >= channels) return false;
  a = b = 0;
  for (int k = 0; k < kFinalizeChunks; ++k) {
    a += sa[k][threadIdx.x];
    b += sb[k][threadIdx.x];
  }
  return true;
}

dim3 FinalizeGrid(int64_t channels) { return dim3(static_cast<unsigned>((channels + 31) / 32)); }
dim3 FinalizeBlock() { return dim3(32, kFinalizeChunks); }

__global__ void ForwardFinalizeKernel(const float* __restrict__ partials, int64_t chunks,
                                      int64_t rows, int64_t channels, const float* weight,
                                      const float* bias, float* running_mean, float* running_var,
                                      double momentum, double eps, float* mean, float* invstd,
                                      float* scale, float* shift) {
  double s, q;
  if (!SumChunks(partials, chunks, channels, s, q)) return;
  const int64_t c = static_cast<int64_t>(blockIdx.x) * 32 + threadIdx.x;
  const double m = s / rows;
  const double var = fmax(q / rows - m * m, 0.0);
  const double is = rsqrt(var + eps);
  mean[c] = static_cast<float>(m);
  invstd[c] = static_cast<float>(is);
  const double w = weight ? weight[c] : 1.0, b = bias ? bias[c] : 0.0;
  scale[c] = static_cast<float>(w * is);
  shift[c] = static_cast<float>(b - m * w * is);
  if (running_mean) {
    running_mean[c] = static_cast<float>((1 - momentum) * running_mean[c] + momentum * m);
    const double unbiased = rows > 1 ? var * rows / (rows - 1) : var;
    running_var[c] = static_cast<float>((1 - momentum) * running_var[c] + momentum * unbiased);
  }
}

// Elementwise passes use the reductions' launch shape: each thread keeps one channel
// vector's coefficients in registers and walks rows, so no index arithmetic per element.
// Bit k of mask[row][vector] records whether the ReLU passed element k of the vector: the
// backward reads one byte there instead of the vector of y.
template <typename T>
__global__ void ApplyKernel(const T* __restrict__ x, const T* __restrict__ z, T* __restrict__ y,
                            uint8_t* __restrict__ mask, int64_t rows, int64_t channels,
                            int64_t rows_per_chunk, const float* __restrict__ scale,
                            const float* __restrict__ shift) {
  constexpr int kV = Vec<T>::kSize;
  const int64_t vector = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (vector * kV >= channels) return;
  float sc[kV], sh[kV];
#pragma unroll
  for (int k = 0; k < kV; ++k) {
    sc[k] = scale[vector * kV + k];
    sh[k] = shift[vector * kV + k];
  }
  const int64_t begin = static_cast<int64_t>(blockIdx.y) * rows_per_chunk;
  const int64_t end = min(rows, begin + rows_per_chunk);
  constexpr int kUnroll = 2;
  const int64_t step = blockDim.y;
  for (int64_t r = begin + threadIdx.y; r < end; r += kUnroll * step) {
    Vec<T> xv[kUnroll], zv[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t row = r + u * step;
      if (row >= end) break;
      const int64_t at = row * channels + vector * kV;
      xv[u] = *reinterpret_cast<const Vec<T>*>(x + at);
      if (z) zv[u] = *reinterpret_cast<const Vec<T>*>(z + at);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t row = r + u * step;
      if (row >= end) break;
      Vec<T> out;
      unsigned bits = 0;
#pragma unroll
      for (int k = 0; k < kV; ++k) {
        float v = Io<T>::Load(xv[u].v[k]) * sc[k] + sh[k];
        if (z) v += Io<T>::Load(zv[u].v[k]);
        out.v[k] = Io<T>::Store(fmaxf(v, 0.f));
        bits |= (v > 0.f ? 1u : 0u) << k;
      }
      *reinterpret_cast<Vec<T>*>(y + row * channels + vector * kV) = out;
      mask[row * (channels / kV) + vector] = static_cast<uint8_t>(bits);
    }
  }
}

// dgamma, dbeta, and dx = a * g - b * x + c per channel.
__global__ void BackwardFinalizeKernel(const float* __restrict__ partials, int64_t chunks,
                                       int64_t rows, int64_t channels, const float* weight,
                                       const float* mean, const float* invstd, float* grad_weight,
                                       float* grad_bias, float* coef) {
  double sg, sgx;
  if (!SumChunks(partials, chunks, channels, sg, sgx)) return;
  const int64_t c = static_cast<int64_t>(blockIdx.x) * 32 + threadIdx.x;
  const double m = mean[c], is = invstd[c];
  const double dgamma = is * (sgx - m * sg);  // sum of g * xhat
  if (grad_weight) grad_weight[c] = static_cast<float>(dgamma);
  if (grad_bias) grad_bias[c] = static_cast<float>(sg);
  const double w = weight ? weight[c] : 1.0;
  const double a = w * is;
  const double b = a * is * dgamma / rows;
  coef[c] = static_cast<float>(a);
  coef[channels + c] = static_cast<float>(b);
  coef[2 * channels + c] = static_cast<float>(-a * sg / rows + b * m);
}

template <typename T>
__global__ void GradInputKernel(const T* __restrict__ dy, const T* __restrict__ x,
                                const uint8_t* __restrict__ mask, T* __restrict__ dx,
                                T* __restrict__ dz, int64_t rows, int64_t channels,
                                int64_t rows_per_chunk, const float* __restrict__ coef) {
  constexpr int kV = Vec<T>::kSize;
  const int64_t vector = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (vector * kV >= channels) return;
  float ca[kV], cb[kV], cc[kV];
#pragma unroll
  for (int k = 0; k < kV; ++k) {
    const int64_t c = vector * kV + k;
    ca[k] = coef[c];
    cb[k] = coef[channels + c];
    cc[k] = coef[2 * channels + c];
  }
  const int64_t begin = static_cast<int64_t>(blockIdx.y) * rows_per_chunk;
  const int64_t end = min(rows, begin + rows_per_chunk);
  constexpr int kUnroll = 2;
  const int64_t step = blockDim.y;
  for (int64_t r = begin + threadIdx.y; r < end; r += kUnroll * step) {
    Vec<T> dv[kUnroll], xv[kUnroll];
    uint8_t bits[kUnroll] = {};
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t row = r + u * step;
      if (row >= end) break;
      const int64_t at = row * channels + vector * kV;
      dv[u] = *reinterpret_cast<const Vec<T>*>(dy + at);
      xv[u] = *reinterpret_cast<const Vec<T>*>(x + at);
      bits[u] = mask[row * (channels / kV) + vector];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t row = r + u * step;
      if (row >= end) break;
      Vec<T> gx, gz;
#pragma unroll
      for (int k = 0; k < kV; ++k) {
        const float g = (bits[u] >> k) & 1 ? Io<T>::Load(dv[u].v[k]) : 0.f;
        gx.v[k] = Io<T>::Store(ca[k] * g - cb[k] * Io<T>::Load(xv[u].v[k]) + cc[k]);
        gz.v[k] = Io<T>::Store(g);
      }
      const int64_t at = row * channels + vector * kV;
      *reinterpret_cast<Vec<T>*>(dx + at) = gx;
      if (dz) *reinterpret_cast<Vec<T>*>(dz + at) = gz;
    }
  }
}

template <typename T>
void Forward(const void* x, const void* z, void* y, uint8_t* mask, int64_t rows, int64_t channels,
             const float* weight, const float* bias, float* running_mean, float* running_var,
             double momentum, double eps, float* mean, float* invstd, float* scale, float* shift,
             float* partials, cudaStream_t stream) {
  const ReduceShape s = Shape<T>(rows, channels);
  const size_t shared = 2 * sizeof(float) * s.block.y * s.block.x * Vec<T>::kSize;
  ReduceKernel<T, false><<<s.grid, s.block, shared, stream>>>(
      static_cast<const T*>(x), nullptr, nullptr, rows, channels, s.rows_per_chunk, partials);
  ForwardFinalizeKernel<<<FinalizeGrid(channels), FinalizeBlock(), 0, stream>>>(
      partials, s.chunks, rows, channels, weight, bias, running_mean, running_var, momentum, eps,
      mean, invstd, scale, shift);
  ApplyKernel<T><<<s.grid, s.block, 0, stream>>>(static_cast<const T*>(x), static_cast<const T*>(z),
                                                 static_cast<T*>(y), mask, rows, channels,
                                                 s.rows_per_chunk, scale, shift);
}

template <typename T>
void Backward(const void* dy, const void* x, const uint8_t* mask, void* dx, void* dz, int64_t rows,
              int64_t channels, const float* weight, const float* mean, const float* invstd,
              float* grad_weight, float* grad_bias, float* coef, float* partials,
              cudaStream_t stream) {
  const ReduceShape s = Shape<T>(rows, channels);
  const size_t shared = 2 * sizeof(float) * s.block.y * s.block.x * Vec<T>::kSize;
  ReduceKernel<T, true><<<s.grid, s.block, shared, stream>>>(static_cast<const T*>(x),
                                                             static_cast<const T*>(dy), mask, rows,
                                                             channels, s.rows_per_chunk, partials);
  BackwardFinalizeKernel<<<FinalizeGrid(channels), FinalizeBlock(), 0, stream>>>(
      partials, s.chunks, rows, channels, weight, mean, invstd, grad_weight, grad_bias, coef);
  GradInputKernel<T><<<s.grid, s.block, 0, stream>>>(
      static_cast<const T*>(dy), static_cast<const T*>(x), mask, static_cast<T*>(dx),
      static_cast<T*>(dz), rows, channels, s.rows_per_chunk, coef);
}

int VectorWidth(DType dtype) { return dtype == DType::kFloat ? 4 : 8; }

}  // namespace

int64_t BnMaskBytes(DType dtype, int64_t rows, int64_t channels) {
  return rows * (channels / VectorWidth(dtype));
}

int64_t BnPartialFloats(int64_t rows, int64_t channels) {
  // The most chunks either dtype's shape can choose.
  const int64_t chunks =
      std::max(Shape<float>(rows, channels).chunks, Shape<__half>(rows, channels).chunks);
  return 2 * chunks * channels;
}

const char* BnReluUnsupported(DType dtype, int64_t channels) {
  if (channels % VectorWidth(dtype) != 0) return "channels not a multiple of the vector width";
  return nullptr;
}

void BnReluForward(DType dtype, const void* x, const void* z, void* y, uint8_t* mask, int64_t rows,
                   int64_t channels, const float* weight, const float* bias, float* running_mean,
                   float* running_var, double momentum, double eps, float* mean, float* invstd,
                   float* scale, float* shift, float* partials, cudaStream_t stream) {
  switch (dtype) {
    case DType::kFloat:
      return Forward<float>(x, z, y, mask, rows, channels, weight, bias, running_mean, running_var,
                            momentum, eps, mean, invstd, scale, shift, partials, stream);
    case DType::kHalf:
      return Forward<__half>(x, z, y, mask, rows, channels, weight, bias, running_mean, running_var,
                             momentum, eps, mean, invstd, scale, shift, partials, stream);
    case DType::kBFloat16:
      return Forward<__nv_bfloat16>(x, z, y, mask, rows, channels, weight, bias, running_mean,
                                    running_var, momentum, eps, mean, invstd, scale, shift,
                                    partials, stream);
  }
}

void BnReluBackward(DType dtype, const void* dy, const void* x, const uint8_t* mask, void* dx,
                    void* dz, int64_t rows, int64_t channels, const float* weight,
                    const float* mean, const float* invstd, float* grad_weight, float* grad_bias,
                    float* coef, float* partials, cudaStream_t stream) {
  switch (dtype) {
    case DType::kFloat:
      return Backward<float>(dy, x, mask, dx, dz, rows, channels, weight, mean, invstd, grad_weight,
                             grad_bias, coef, partials, stream);
    case DType::kHalf:
      return Backward<__half>(dy, x, mask, dx, dz, rows, channels, weight, mean, invstd,
                              grad_weight, grad_bias, coef, partials, stream);
    case DType::kBFloat16:
      return Backward<__nv_bfloat16>(dy, x, mask, dx, dz, rows, channels, weight, mean, invstd,
                                     grad_weight, grad_bias, coef, partials, stream);
  }
}

}  // namespace trainbench::train::cuda
