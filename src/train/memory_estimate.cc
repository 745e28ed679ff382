#include "train/memory_estimate.h"

#include <map>

namespace trainbench::train {

namespace {

struct Footprint {
  double base_bytes;       // weights, gradients, momentum, LibTorch itself
  double per_image_bytes;  // activations kept for backward, at 224x224
};

// Measured here (2-core AMD EPYC, fp32, 224x224, 1 warm-up and 2 steps, 2026-11-29 with
// channels-last, the fused batch norm and the heap kept between steps, train/cpu/
// retained_heap.h): the slope and intercept of peak RSS (/usr/bin/time's maxrss) between
// batch 16 and 32 (resnet18/34/50) and 8 and 16 (resnet101/152). Peak RSS varies by some 10%
// from run to run, so callers keep a margin.
const std::map<std::string, Footprint>& Footprints() {
  static const std::map<std::string, Footprint> figures = {{"resnet18", {0.12e9, 54.2e6}},
                                                           {"resnet34", {0.33e9, 60.6e6}},
                                                           {"resnet50", {0.45e9, 148.2e6}},
                                                           {"resnet101", {0.53e9, 204.6e6}},
                                                           {"resnet152", {1.02e9, 226.6e6}}};
  return figures;
}

}  // namespace

uint64_t CpuTrainingBytes(const std::string& model, int64_t batch_size, int image_size) {
  const auto it = Footprints().find(model);
  if (it == Footprints().end() || batch_size < 1) return 0;
  const double area = static_cast<double>(image_size) * image_size / (224.0 * 224.0);
  return static_cast<uint64_t>(it->second.base_bytes +
                               it->second.per_image_bytes * area * static_cast<double>(batch_size));
}

int64_t LargestCpuBatch(const std::string& model, int image_size, uint64_t available) {
  const auto it = Footprints().find(model);
  if (it == Footprints().end()) return 0;
  const double area = static_cast<double>(image_size) * image_size / (224.0 * 224.0);
  const double room = static_cast<double>(available) - it->second.base_bytes;
  return room <= 0 ? 0 : static_cast<int64_t>(room / (it->second.per_image_bytes * area));
}

}  // namespace trainbench::train
