// What `trainbench train` prints: progress lines shaped like the PyTorch scripts users know,
// and the final stdout line {"radix_metrics": {...}, "trainbench": {...}} whose first object
// has exactly the seven fields those scripts report. No LibTorch here.
// Thread-safe (pure functions).
#pragma once

#include <string>
#include <vector>

#include "train/trainer.h"

namespace trainbench::train {

// Nearest-rank percentile (p in 0..100) of `values`; 0 when empty.
double Percentile(std::vector<double> values, double p);

std::string ProgressLine(int64_t epoch, int64_t epochs, int64_t step, int64_t steps, double loss,
                         double images_per_second);

std::string MetricsLine(const TrainOptions& options, const TrainResult& result);

}  // namespace trainbench::train
