#include "train/train_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

#include "common/json_fields.h"

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

namespace {

// The seven fields the PyTorch scripts report, in their order.
struct RadixMetrics {
  double images_per_second = 0;
  int64_t total_images = 0;
  double elapsed_seconds = 0;
  double lr = 0;
  int64_t batch_size = 0, epochs = 0, steps_per_epoch = 0;
};
TB_JSON_FIELDS(RadixMetrics, images_per_second, total_images, elapsed_seconds, lr, batch_size,
               epochs, steps_per_epoch)

// trainbench's own figures of the training; the optional ones where they apply.
struct TrainFigures {
  std::string precision;
  bool channels_last = false;
  std::string device, device_name, model, data;
  int image_size = 0;
  int64_t warmup_steps = 0;
  double step_time_p50_ms = 0, step_time_p99_ms = 0, data_wait_share = 0;
  std::optional<int64_t> skipped_steps;  // fp16
  int world_size = 1;
  double images_per_second_per_process = 0;
  int64_t steps = 0;
  // Ctrl-C during the timed steps: these figures are of the steps done, not of the epochs asked.
  std::optional<bool> interrupted;
  std::optional<std::string> dist_backend, gradient_sync;  // a launched job's
  std::optional<double> scaling_efficiency;                // --scaling-baseline
  bool cuda_graphs = false, fused_batch_norm = false;
  std::optional<bool> widened_bf16_convolutions;  // bf16 on a CPU: whether they were
  // On a GPU the loss is read back only every this many steps (each read waits for it).
  int64_t loss_read_interval = 1;
  std::optional<int64_t> bad_images;  // --data: images that did not decode
  std::optional<std::map<std::string, double>> storage_counters;
};
TB_JSON_FIELDS(TrainFigures, precision, channels_last, device, device_name, model, data, image_size,
               warmup_steps, step_time_p50_ms, step_time_p99_ms, data_wait_share, skipped_steps,
               world_size, images_per_second_per_process, steps, interrupted, dist_backend,
               gradient_sync, scaling_efficiency, cuda_graphs, fused_batch_norm,
               widened_bf16_convolutions, loss_read_interval, bad_images, storage_counters)

struct MetricsLineFields {
  RadixMetrics radix_metrics;
  TrainFigures trainbench;
};
TB_JSON_FIELDS(MetricsLineFields, radix_metrics, trainbench)

template <class T>
std::optional<T> OnlyIf(bool applies, const T& value) {
  return applies ? std::optional<T>(value) : std::nullopt;
}

}  // namespace

std::string MetricsLine(const TrainOptions& options, const TrainResult& result) {
  const double step_total =
      std::accumulate(result.step_seconds.begin(), result.step_seconds.end(), 0.0);
  const bool launched = !result.dist_backend.empty();
  const MetricsLineFields line{
      .radix_metrics = {.images_per_second = result.images_per_second,
                        .total_images = result.total_images,
                        .elapsed_seconds = result.elapsed_seconds,
                        .lr = options.lr,
                        .batch_size = options.batch_size,
                        .epochs = options.epochs,
                        .steps_per_epoch = options.steps_per_epoch},
      .trainbench = {
          .precision = options.precision,
          .channels_last = options.channels_last,
          .device = result.device,
          .device_name = result.device_description,
          .model = options.model,
          .data = result.data,
          .image_size = options.image_size,
          .warmup_steps = options.warmup_steps,
          .step_time_p50_ms = Percentile(result.step_seconds, 50) * 1e3,
          .step_time_p99_ms = Percentile(result.step_seconds, 99) * 1e3,
          .data_wait_share = step_total > 0 ? result.data_wait_seconds / step_total : 0.0,
          .skipped_steps = OnlyIf(options.precision == "fp16", result.skipped_steps),
          .world_size = result.world_size,
          .images_per_second_per_process = result.images_per_second_per_process,
          .steps = result.steps_done,
          .interrupted = OnlyIf(result.interrupted, true),
          .dist_backend = OnlyIf(launched, result.dist_backend),
          .gradient_sync = OnlyIf(launched, result.gradient_sync),
          .scaling_efficiency = OnlyIf(result.scaling_efficiency > 0, result.scaling_efficiency),
          .cuda_graphs = result.cuda_graphs,
          .fused_batch_norm = result.fused_batch_norm,
          .widened_bf16_convolutions = OnlyIf(result.device == "cpu" && options.precision == "bf16",
                                              result.widened_bf16_convolutions),
          .loss_read_interval = result.loss_read_interval,
          .bad_images = OnlyIf(result.data != "synthetic", result.bad_images),
          .storage_counters = OnlyIf(!result.storage_counters.empty(), result.storage_counters)}};
  return nlohmann::ordered_json(line).dump();
}

}  // namespace trainbench::train
