// How much host memory CPU training of a ResNet takes, so a batch that cannot fit is refused
// (or shrunk, for --calibrate) before it starts, instead of the kernel's OOM killer ending it
// (ResNet-50 at the MLPerf batch of 400 wants about 36 GB). The figures are peak resident
// memory measured with `trainbench train --allow-cpu` at two batch sizes per model (fp32,
// 224x224, Debian's LibTorch 1.13): a fixed part and a part per image, which scales with the
// image's area. No LibTorch here: the binary and the plugin both use it.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <string>

namespace trainbench::train {

// Estimated peak bytes of CPU training; 0 for a model without figures.
uint64_t CpuTrainingBytes(const std::string& model, int64_t batch_size, int image_size);

// The largest batch whose estimate is within `available` bytes (0 if not even one image).
int64_t LargestCpuBatch(const std::string& model, int image_size, uint64_t available);

}  // namespace trainbench::train
