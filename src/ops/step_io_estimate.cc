#include "ops/step_io_estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace trainbench::ops {

TrainingShape ReadTrainingShape(const std::string& path) {
  namespace fs = std::filesystem;
  TrainingShape t;
  t.path = fs::is_directory(path) ? (fs::path(path) / "summary.json").string() : path;
  std::ifstream in(t.path);
  if (!in)
    throw UsageError(
        fmt::format("--train-results {}: cannot read {}; give a train job's results folder (train "
                    "--output DIR) or its summary.json",
                    path, t.path));
  nlohmann::json d;
  try {
    d = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("--train-results {}: not JSON: {}", t.path, e.what()));
  }
  if (!d.is_object())
    throw UsageError(
        fmt::format("--train-results {}: not a results summary (no JSON object)", t.path));
  // A staged train keeps the training's line under "train".
  nlohmann::json j = d.contains("radix_metrics") ? d : d.value("train", nlohmann::json::object());
  if (!j.is_object()) j = nlohmann::json::object();
  // A training killed before its end left the summary it began with: its kind, no figures.
  const bool measured = j.contains("radix_metrics") && j["radix_metrics"].is_object() &&
                        j["radix_metrics"].contains("elapsed_seconds");
  if (!measured && d.value("complete", true) == false)
    throw UsageError(fmt::format(
        "--train-results {}: that training did not end ({}): it has no figures; give the "
        "results of a training that ran its steps",
        t.path, d.value("stop_reason", std::string("killed"))));
  auto need = [&](const nlohmann::json& o, const char* object, const char* key) {
    if (!o.is_object() || !o.contains(key) || !o.at(key).is_number())
      throw UsageError(fmt::format(
          "--train-results {}: no {}.{}: not the results of `trainbench train` (kind {})", t.path,
          object, key, d.is_object() ? d.value("kind", std::string("unknown")) : "unknown"));
    return o.at(key).get<double>();
  };
  const nlohmann::json radix = j.value("radix_metrics", nlohmann::json::object());
  const nlohmann::json ours = j.value("trainbench", nlohmann::json::object());
  t.batch_size = static_cast<uint64_t>(need(radix, "radix_metrics", "batch_size"));
  // An interrupted training's figures are of the steps it ran.
  t.steps = ours.contains("steps") && ours["steps"].is_number()
                ? ours["steps"].get<uint64_t>()
                : static_cast<uint64_t>(need(radix, "radix_metrics", "epochs") *
                                        need(radix, "radix_metrics", "steps_per_epoch"));
  t.elapsed_s = need(radix, "radix_metrics", "elapsed_seconds");
  t.data_wait_share = need(ours, "trainbench", "data_wait_share");
  t.world_size = static_cast<int>(need(ours, "trainbench", "world_size"));
  const nlohmann::json train_config = d.value("config", nlohmann::json::object());
  auto count = [&](const char* key) {
    const nlohmann::json& c = train_config;
    return c.is_object() && c.contains(key) && c.at(key).is_number_integer()
               ? static_cast<unsigned>(std::max<int64_t>(0, c.at(key).get<int64_t>()))
               : 0u;
  };
  t.workers = count("workers");
  t.io_depth = count("io_depth");
  if (t.batch_size == 0 || t.steps == 0 || !(t.elapsed_s > 0))
    throw UsageError(fmt::format("--train-results {}: a training of no timed steps", t.path));
  return t;
}

StepIoEstimate EstimateStepIo(const TrainingShape& t, uint64_t gets, double seconds, int ranks) {
  StepIoEstimate e;
  e.step_s = t.elapsed_s / static_cast<double>(t.steps);
  e.data_wait_s = e.step_s * std::clamp(t.data_wait_share, 0.0, 1.0);
  e.compute_s = e.step_s - e.data_wait_s;
  if (gets == 0 || !(seconds > 0)) return e;
  e.images_per_s = static_cast<double>(gets) / seconds / std::max(1, ranks);
  e.load_s = static_cast<double>(t.batch_size) / e.images_per_s;
  e.mean_step_s = std::max(e.compute_s, e.load_s);
  e.predicted_step_s = e.mean_step_s;
  e.lost_s = e.predicted_step_s - e.compute_s;
  e.lost_share = e.predicted_step_s > 0 ? e.lost_s / e.predicted_step_s : 0.0;
  e.predicted_images_per_s = static_cast<double>(t.batch_size) / e.predicted_step_s;
  return e;
}

LoaderShape LoaderShapeOf(const TrainingShape& t, const LoaderRun& run) {
  LoaderShape s;
  s.workers = t.workers > 0 ? t.workers : std::max(1u, run.workers);
  // train bounds a worker's reads in flight by its batch.
  s.io_depth = t.io_depth > 0 ? static_cast<unsigned>(std::min<uint64_t>(
                                    t.io_depth, std::max<uint64_t>(1, t.batch_size)))
                              : std::max(1u, run.most_in_flight);
  s.prefetch = 2 * s.workers;  // train's loader, as PyTorch's prefetch_factor 2
  const double step = t.elapsed_s / static_cast<double>(t.steps);
  s.compute_s = step * (1 - std::clamp(t.data_wait_share, 0.0, 1.0));
  s.hold_s = s.io_depth == 1 ? run.hold_s : 0.0;
  s.timed_steps = t.steps;
  return s;
}

void ApplyPipeline(StepIoEstimate& e, const LoaderShape& loader, const PipelineEstimate& p) {
  if (p.batches == 0 || !(p.step_s > 0)) return;
  e.model = "pipeline";
  e.loader = loader;
  e.pipeline = p;
  e.predicted_step_s = p.step_s;
  e.lost_s = p.lost_s;
  e.lost_share = p.lost_s / p.step_s;
  e.predicted_images_per_s = p.images_per_s;
  e.first_batch_wait_s = p.first_batch_wait_s;
}

}  // namespace trainbench::ops
