#include "train/memory_estimate.h"

#include <map>

namespace trainbench::train {

namespace {

struct Footprint {
  double base_bytes;       // weights, gradients, momentum, LibTorch itself
  double per_image_bytes;  // activations kept for backward, at 224x224
};

// Measured: peak RSS at batch 2/6 (resnet18, resnet101) and 4/12 (resnet50), fp32, 224x224.
// resnet34 and resnet152 lie between and beyond by their depth.
const std::map<std::string, Footprint>& Footprints() {
  static const std::map<std::string, Footprint> figures = {{"resnet18", {0.27e9, 40e6}},
                                                           {"resnet34", {0.40e9, 62e6}},
                                                           {"resnet50", {0.54e9, 92e6}},
                                                           {"resnet101", {0.51e9, 152e6}},
                                                           {"resnet152", {0.70e9, 215e6}}};
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
