#include "train/cpu/bn_relu_kernels.h"

#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

namespace trainbench::train::cpu {

namespace {

// Elements a chunk of rows holds: small enough for a thread's share to balance, large
// enough that the partial sums (2 * C floats a chunk) stay a small fraction of the tensor.
constexpr int64_t kChunkElements = 16384;

int64_t RowsPerChunk(int64_t rows, int64_t channels) {
  return std::clamp<int64_t>(kChunkElements / channels, 1, std::max<int64_t>(rows, 1));
}

int64_t Chunks(int64_t rows, int64_t channels) {
  const int64_t per = RowsPerChunk(rows, channels);
  return (rows + per - 1) / per;
}

// Four lanes (SSE on x86-64's baseline, NEON on arm64; the passes are bound by memory, not
// by the width): GCC/Clang vector extensions, so one source builds everywhere.
constexpr int64_t kLanes = 4;
using Floats = float __attribute__((vector_size(16)));
using Ints = int32_t __attribute__((vector_size(16)));
using Words = uint32_t __attribute__((vector_size(16)));
using Shorts = uint16_t __attribute__((vector_size(8)));
using Bytes = uint8_t __attribute__((vector_size(4)));

inline Floats Load(const float* p) {
  Floats v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline Floats Load(const c10::BFloat16* p) {
  Shorts h;
  std::memcpy(&h, p, sizeof h);
  const Words w = __builtin_convertvector(h, Words) << 16;
  Floats v;
  std::memcpy(&v, &w, sizeof v);
  return v;
}
inline void Store(float* p, Floats v) { std::memcpy(p, &v, sizeof v); }
// Round to nearest even, as c10::BFloat16's conversion (activations here are finite).
inline void Store(c10::BFloat16* p, Floats v) {
  Words w;
  std::memcpy(&w, &v, sizeof w);
  w = (w + 0x7fffu + ((w >> 16) & 1u)) >> 16;
  const Shorts h = __builtin_convertvector(w, Shorts);
  std::memcpy(p, &h, sizeof h);
}
inline Ints LoadMask(const uint8_t* p) {
  Bytes b;
  std::memcpy(&b, p, sizeof b);
  return __builtin_convertvector(b, Ints) != 0;
}
inline void StoreMask(uint8_t* p, Ints on) {
  const Bytes b = __builtin_convertvector(on & 1, Bytes);
  std::memcpy(p, &b, sizeof b);
}

template <typename T>
void ShiftedSums(const T* __restrict__ x, int64_t r0, int64_t r1, int64_t channels,
                 const float* __restrict__ pivot, float* __restrict__ sum,
                 float* __restrict__ squares) {
  std::fill(sum, sum + channels, 0.f);
  std::fill(squares, squares + channels, 0.f);
  for (int64_t r = r0; r < r1; ++r) {
    const T* row = x + r * channels;
    for (int64_t c = 0; c < channels; c += kLanes) {
      const Floats d = Load(row + c) - Load(pivot + c);
      Store(sum + c, Load(sum + c) + d);
      Store(squares + c, Load(squares + c) + d * d);
    }
  }
}

template <typename T, bool kResidual>
void ApplyRows(const T* __restrict__ x, const T* __restrict__ z, T* __restrict__ y,
               uint8_t* __restrict__ mask, int64_t r0, int64_t r1, int64_t channels,
               const float* __restrict__ scale, const float* __restrict__ shift) {
  const Floats zero = {};
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t o = r * channels;
    for (int64_t c = 0; c < channels; c += kLanes) {
      Floats v = Load(x + o + c) * Load(scale + c) + Load(shift + c);
      if constexpr (kResidual) v += Load(z + o + c);
      const Ints on = v > zero;
      Store(y + o + c, on ? v : zero);
      StoreMask(mask + o + c, on);
    }
  }
}

template <typename T>
void GradSums(const T* __restrict__ dy, const T* __restrict__ x, const uint8_t* __restrict__ mask,
              int64_t r0, int64_t r1, int64_t channels, const float* __restrict__ mean,
              float* __restrict__ sum_g, float* __restrict__ sum_gx) {
  std::fill(sum_g, sum_g + channels, 0.f);
  std::fill(sum_gx, sum_gx + channels, 0.f);
  const Floats zero = {};
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t o = r * channels;
    for (int64_t c = 0; c < channels; c += kLanes) {
      const Floats g = LoadMask(mask + o + c) ? Load(dy + o + c) : zero;
      Store(sum_g + c, Load(sum_g + c) + g);
      Store(sum_gx + c, Load(sum_gx + c) + g * (Load(x + o + c) - Load(mean + c)));
    }
  }
}

template <typename T, bool kResidual>
void GradInputRows(const T* __restrict__ dy, const T* __restrict__ x,
                   const uint8_t* __restrict__ mask, T* __restrict__ dx, T* __restrict__ dz,
                   int64_t r0, int64_t r1, int64_t channels, const float* __restrict__ a,
                   const float* __restrict__ b, const float* __restrict__ c0) {
  const Floats zero = {};
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t o = r * channels;
    for (int64_t c = 0; c < channels; c += kLanes) {
      const Floats g = LoadMask(mask + o + c) ? Load(dy + o + c) : zero;
      Store(dx + o + c, Load(a + c) * g - Load(b + c) * Load(x + o + c) + Load(c0 + c));
      if constexpr (kResidual) Store(dz + o + c, g);
    }
  }
}

// Sums each channel's pair of partials over the chunks, in double.
void ReducePartials(const float* partials, int64_t chunks, int64_t channels,
                    std::vector<double>& first, std::vector<double>& second) {
  first.assign(static_cast<size_t>(channels), 0.0);
  second.assign(static_cast<size_t>(channels), 0.0);
  for (int64_t k = 0; k < chunks; ++k) {
    const float* p = partials + 2 * k * channels;
    for (int64_t c = 0; c < channels; ++c) {
      first[c] += p[c];
      second[c] += p[channels + c];
    }
  }
}

// Runs fn(r0, r1) over the rows, a chunk at a time, on the intra-op threads.
template <typename Fn>
void ForChunks(int64_t rows, int64_t channels, const Fn& fn) {
  const int64_t per = RowsPerChunk(rows, channels);
  at::parallel_for(0, Chunks(rows, channels), 1, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) fn(k, k * per, std::min(rows, (k + 1) * per));
  });
}

template <typename T>
void Forward(const void* xv, const void* zv, void* yv, uint8_t* mask, int64_t rows,
             int64_t channels, const float* weight, const float* bias, float* running_mean,
             float* running_var, double momentum, double eps, float* mean, float* invstd,
             float* scale, float* shift, float* partials) {
  const T* x = static_cast<const T*>(xv);
  const T* z = static_cast<const T*>(zv);
  T* y = static_cast<T*>(yv);
  // The first row as the pivot: sums of (x - pivot) keep the variance's digits when the
  // mean is large against the spread.
  std::vector<float> pivot(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) pivot[c] = static_cast<float>(x[c]);
  ForChunks(rows, channels, [&](int64_t k, int64_t r0, int64_t r1) {
    float* p = partials + 2 * k * channels;
    ShiftedSums(x, r0, r1, channels, pivot.data(), p, p + channels);
  });
  std::vector<double> sum, squares;
  ReducePartials(partials, Chunks(rows, channels), channels, sum, squares);
  const double n = static_cast<double>(rows);
  for (int64_t c = 0; c < channels; ++c) {
    const double shifted_mean = sum[c] / n;
    const double var = std::max(0.0, squares[c] / n - shifted_mean * shifted_mean);
    const double m = pivot[c] + shifted_mean;
    const double is = 1.0 / std::sqrt(var + eps);
    mean[c] = static_cast<float>(m);
    invstd[c] = static_cast<float>(is);
    scale[c] = static_cast<float>(weight[c] * is);
    shift[c] = static_cast<float>(bias[c] - m * weight[c] * is);
    running_mean[c] = static_cast<float>((1 - momentum) * running_mean[c] + momentum * m);
    const double unbiased = rows > 1 ? var * n / (n - 1) : var;
    running_var[c] = static_cast<float>((1 - momentum) * running_var[c] + momentum * unbiased);
  }
  ForChunks(rows, channels, [&](int64_t, int64_t r0, int64_t r1) {
    if (z != nullptr)
      ApplyRows<T, true>(x, z, y, mask, r0, r1, channels, scale, shift);
    else
      ApplyRows<T, false>(x, z, y, mask, r0, r1, channels, scale, shift);
  });
}

template <typename T>
void Backward(const void* dyv, const void* xv, const uint8_t* mask, void* dxv, void* dzv,
              int64_t rows, int64_t channels, const float* weight, const float* mean,
              const float* invstd, float* grad_weight, float* grad_bias, float* coef,
              float* partials) {
  const T* dy = static_cast<const T*>(dyv);
  const T* x = static_cast<const T*>(xv);
  T* dx = static_cast<T*>(dxv);
  T* dz = static_cast<T*>(dzv);
  ForChunks(rows, channels, [&](int64_t k, int64_t r0, int64_t r1) {
    float* p = partials + 2 * k * channels;
    GradSums(dy, x, mask, r0, r1, channels, mean, p, p + channels);
  });
  std::vector<double> sum_g, sum_gx;
  ReducePartials(partials, Chunks(rows, channels), channels, sum_g, sum_gx);
  const double n = static_cast<double>(rows);
  float *a = coef, *b = coef + channels, *c0 = coef + 2 * channels;
  for (int64_t c = 0; c < channels; ++c) {
    const double is = invstd[c], ac = weight[c] * is;
    const double bc = ac * is * is * sum_gx[c] / n;
    grad_bias[c] = static_cast<float>(sum_g[c]);
    grad_weight[c] = static_cast<float>(sum_gx[c] * is);
    a[c] = static_cast<float>(ac);
    b[c] = static_cast<float>(bc);
    c0[c] = static_cast<float>(bc * mean[c] - ac * sum_g[c] / n);
  }
  ForChunks(rows, channels, [&](int64_t, int64_t r0, int64_t r1) {
    if (dz != nullptr)
      GradInputRows<T, true>(dy, x, mask, dx, dz, r0, r1, channels, a, b, c0);
    else
      GradInputRows<T, false>(dy, x, mask, dx, dz, r0, r1, channels, a, b, c0);
  });
}

}  // namespace

int64_t BnPartialFloats(int64_t rows, int64_t channels) {
  return 2 * Chunks(rows, channels) * channels;
}

int64_t BnMaskBytes(int64_t rows, int64_t channels) { return rows * channels; }

int BnKernelThreads() {
  std::atomic<uint64_t> ran{0};
  at::parallel_for(0, at::get_num_threads(), 1, [&](int64_t, int64_t) {
    ran.fetch_or(uint64_t{1} << (at::get_thread_num() % 64));
  });
  return std::popcount(ran.load());
}

const char* BnReluUnsupported(int64_t channels) {
  return channels % kLanes == 0 ? nullptr : "channels not a multiple of 4";
}

void BnReluForward(DType dtype, const void* x, const void* z, void* y, uint8_t* mask, int64_t rows,
                   int64_t channels, const float* weight, const float* bias, float* running_mean,
                   float* running_var, double momentum, double eps, float* mean, float* invstd,
                   float* scale, float* shift, float* partials) {
  auto run = dtype == DType::kFloat ? Forward<float> : Forward<c10::BFloat16>;
  run(x, z, y, mask, rows, channels, weight, bias, running_mean, running_var, momentum, eps, mean,
      invstd, scale, shift, partials);
}

void BnReluBackward(DType dtype, const void* dy, const void* x, const uint8_t* mask, void* dx,
                    void* dz, int64_t rows, int64_t channels, const float* weight,
                    const float* mean, const float* invstd, float* grad_weight, float* grad_bias,
                    float* coef, float* partials) {
  auto run = dtype == DType::kFloat ? Backward<float> : Backward<c10::BFloat16>;
  run(dy, x, mask, dx, dz, rows, channels, weight, mean, invstd, grad_weight, grad_bias, coef,
      partials);
}

}  // namespace trainbench::train::cpu
