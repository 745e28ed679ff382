// Where training runs and how the backend is set up for it: CUDA or CPU, the precision
// switches (TF32 for cuBLAS and cuDNN, autocast to bf16 or fp16), cuDNN autotuning, CPU
// thread counts, and the one-line description start-up prints. CUDA-only calls are compiled
// when the LibTorch found has CUDA (TRAINBENCH_TORCH_CUDA), so the same source builds with
// PyTorch's LibTorch linked by its CPU half on a CPU machine and whole on a GPU machine.
// Not thread-safe: called from the training thread (autocast state is thread-local).
#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <string>

namespace trainbench::train {

enum class Precision { kFp32, kTf32, kBf16, kFp16 };

Precision ParsePrecision(const std::string& name);  // UsageError when unknown
const char* PrecisionName(Precision precision);

bool CudaAvailable();

// Switches TF32, cuDNN autotuning and CPU threads (`threads` 0: all cores).
void ConfigureBackends(const c10::Device& device, Precision precision, int threads);

// "NVIDIA H100 80GB HBM3, 79.1 GiB" or "Intel(R) Xeon(R) Processor, 2 threads".
std::string DescribeDevice(const c10::Device& device);

// Waits for the device's queued work (no-op on CPU).
void Synchronize(const c10::Device& device);

// Autocast to `precision`'s lower type for ops run on this thread while it lives; fp32 and
// tf32 leave autocast off. Clears autocast's cast cache on exit, as Python's context does,
// so the next step casts the updated weights again.
class AutocastScope {
 public:
  AutocastScope(const c10::Device& device, Precision precision);
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  c10::DeviceType type_;
  bool enabled_ = false;
};

// Is `what` a device out-of-memory message (so the CLI can suggest a smaller batch)?
bool IsOutOfMemory(const std::string& what);

}  // namespace trainbench::train
