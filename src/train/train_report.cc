#include "train/train_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>

namespace trainbench::train {

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  const size_t index =
      static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size())));
  return values[index - 1];
}

std::string ProgressLine(int64_t epoch, int64_t epochs, int64_t step, int64_t steps, double loss,
                         double images_per_second) {
  return fmt::format("Epoch [{}/{}] Step [{}/{}] Loss: {:.4f} Images/sec: {:.2f}", epoch, epochs,
                     step, steps, loss, images_per_second);
}

std::string MetricsLine(const TrainOptions& options, const TrainResult& result) {
  // Field order as the scripts print it (nlohmann's ordered_json keeps insertion order).
  nlohmann::ordered_json radix;
  radix["images_per_second"] = result.images_per_second;
  radix["total_images"] = result.total_images;
  radix["elapsed_seconds"] = result.elapsed_seconds;
  radix["lr"] = options.lr;
  radix["batch_size"] = options.batch_size;
  radix["epochs"] = options.epochs;
  radix["steps_per_epoch"] = options.steps_per_epoch;
  const double step_total =
      std::accumulate(result.step_seconds.begin(), result.step_seconds.end(), 0.0);
  nlohmann::ordered_json ours;
  ours["precision"] = options.precision;
  ours["channels_last"] = options.channels_last;
  ours["device"] = result.device;
  ours["device_name"] = result.device_description;
  ours["model"] = options.model;
  ours["data"] = result.data;
  ours["image_size"] = options.image_size;
  ours["warmup_steps"] = options.warmup_steps;
  ours["step_time_p50_ms"] = Percentile(result.step_seconds, 50) * 1e3;
  ours["step_time_p99_ms"] = Percentile(result.step_seconds, 99) * 1e3;
  ours["data_wait_share"] = step_total > 0 ? result.data_wait_seconds / step_total : 0.0;
  if (options.precision == "fp16") ours["skipped_steps"] = result.skipped_steps;
  ours["world_size"] = result.world_size;
  ours["images_per_second_per_process"] = result.images_per_second_per_process;
  ours["steps"] = result.steps_done;
  // Ctrl-C during the timed steps: these figures are of the steps done, not of the epochs asked.
  if (result.interrupted) ours["interrupted"] = true;
  if (!result.dist_backend.empty()) {
    ours["dist_backend"] = result.dist_backend;
    ours["gradient_sync"] = result.gradient_sync;
  }
  if (result.scaling_efficiency > 0) ours["scaling_efficiency"] = result.scaling_efficiency;
  ours["cuda_graphs"] = result.cuda_graphs;
  ours["fused_batch_norm"] = result.fused_batch_norm;
  // On a GPU the loss is read back only every this many steps (each read waits for it).
  ours["loss_read_interval"] = result.loss_read_interval;
  if (result.data != "synthetic") ours["bad_images"] = result.bad_images;
  if (!result.storage_counters.empty()) ours["storage_counters"] = result.storage_counters;
  nlohmann::ordered_json line;
  line["radix_metrics"] = radix;
  line["trainbench"] = ours;
  return line.dump();
}

}  // namespace trainbench::train
