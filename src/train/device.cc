#include "train/device.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/autocast_mode.h>
#include <fmt/format.h>
#include <torch/cuda.h>

#include <fstream>
#include <thread>

#include "common/error.h"
#include "common/units.h"

#if defined(TRAINBENCH_TORCH_CUDA)
#include <ATen/cuda/CUDAContext.h>
#endif

namespace trainbench::train {

Precision ParsePrecision(const std::string& name) {
  if (name == "fp32") return Precision::kFp32;
  if (name == "tf32") return Precision::kTf32;
  if (name == "bf16") return Precision::kBf16;
  if (name == "fp16") return Precision::kFp16;
  throw UsageError(fmt::format("--precision {}: choose fp32, tf32, bf16 or fp16", name));
}

const char* PrecisionName(Precision precision) {
  switch (precision) {
    case Precision::kFp32:
      return "fp32";
    case Precision::kTf32:
      return "tf32";
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp16:
      return "fp16";
  }
  return "?";
}

bool CudaAvailable() { return torch::cuda::is_available(); }

void ConfigureBackends(const c10::Device& device, Precision precision, int threads) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  // The cores unless told otherwise, whatever OMP_NUM_THREADS the launcher left.
  at::set_num_threads(threads > 0 ? threads : std::max(1, cores));
  if (!device.is_cuda()) return;
  auto& context = at::globalContext();
  // Conv algorithms are chosen by timing them once per shape; batches here keep one shape.
  context.setBenchmarkCuDNN(true);
  // fp32 means IEEE fp32 everywhere; tf32 lets cuBLAS and cuDNN use TF32 tensor cores;
  // autocast runs keep PyTorch's defaults for the ops left in fp32 (cuDNN TF32 on).
  const bool mixed = precision == Precision::kBf16 || precision == Precision::kFp16;
  context.setAllowTF32CuBLAS(precision == Precision::kTf32);
  context.setAllowTF32CuDNN(precision == Precision::kTf32 || mixed);
}

std::string DescribeDevice(const c10::Device& device) {
  if (device.is_cuda()) {
#if defined(TRAINBENCH_TORCH_CUDA)
    const auto* properties = at::cuda::getDeviceProperties(device.has_index() ? device.index() : 0);
    return fmt::format("{}, {:.1f} GiB", properties->name,
                       static_cast<double>(properties->totalGlobalMem) / kGiB);
#else
    return fmt::format("CUDA device {}", device.has_index() ? device.index() : 0);
#endif
  }
  std::string model = "CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  return fmt::format("{}, {} threads", model, at::get_num_threads());
}

void Synchronize(const c10::Device& device) {
  if (device.is_cuda()) torch::cuda::synchronize(device.has_index() ? device.index() : -1);
}

AutocastScope::AutocastScope(const c10::Device& device, Precision precision)
    : type_(device.type()) {
  if (precision != Precision::kBf16 && precision != Precision::kFp16) return;
  const c10::ScalarType dtype = precision == Precision::kBf16 ? at::kBFloat16 : at::kHalf;
  enabled_ = true;
  at::autocast::set_autocast_dtype(type_, dtype);
  at::autocast::set_autocast_enabled(type_, true);
  at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope() {
  if (!enabled_) return;
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  at::autocast::set_autocast_enabled(type_, false);
}

bool IsOutOfMemory(const std::string& what) {
  return what.find("out of memory") != std::string::npos ||
         what.find("OutOfMemory") != std::string::npos ||
         what.find("not enough memory") != std::string::npos;
}

}  // namespace trainbench::train
