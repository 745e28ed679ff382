// A stand-in for libtrainbench_train.so that needs no LibTorch, for tests/stage/train_test.sh:
// put beside a copy of the binary, it lets `train --stage-to` run its whole success path
// (stage, train, account) in every build. It does not train: it counts the files under the
// staged --data (failing when there are none) and sleeps TRAINBENCH_STAND_IN_SECONDS (0.2 by
// default), so the job's compute_s has a known floor; its device description says what it is.
// With TRAINBENCH_STAND_IN_FAIL set it fails after counting, as a training that breaks does.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "train/trainer.h"

namespace {

trainbench::train::TrainResult StandIn(const trainbench::train::TrainOptions& options) {
  if (options.check_only) return {};  // the check before staging: nothing to check here
  int64_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(options.data))
    files += entry.is_regular_file() ? 1 : 0;
  if (files == 0) throw std::runtime_error("stand-in plugin: no files under " + options.data);
  if (std::getenv("TRAINBENCH_STAND_IN_FAIL"))
    throw std::runtime_error("stand-in plugin: asked to fail (TRAINBENCH_STAND_IN_FAIL)");
  const char* text = std::getenv("TRAINBENCH_STAND_IN_SECONDS");
  const double seconds = text ? std::atof(text) : 0.2;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  trainbench::train::TrainResult r;
  r.device = "cpu";
  r.device_description = "stand-in plugin (no training)";
  r.data = options.data;
  r.total_images = files;
  r.elapsed_seconds = seconds;
  r.images_per_second = static_cast<double>(files) / seconds;
  r.batch_size = options.batch_size;
  return r;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) trainbench::train::TrainFunction
TrainbenchTrainEntry() {
  return &StandIn;
}
