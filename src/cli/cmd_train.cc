// `trainbench train`: real ResNet training with LibTorch (src/train/), the flags and output
// of the PyTorch scripts users compare against, and `--calibrate WORKLOAD` to turn a measured
// step time into the computation_time override for `trainbench run`. The LibTorch code is a plugin
// loaded at run time (train_plugin.h); without it the command says how to get LibTorch.
// `--stage-to DIR` stages a remote --data first and keeps the job's time account
// (staged_train.h).
#include <fmt/format.h>

#include <cstdio>

#include "cli/command.h"
#include "cli/job_timeseries.h"
#include "cli/stage_results.h"
#include "cli/staged_train.h"
#include "cli/train_plugin.h"
#include "cli/validators.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/output_path.h"
#include "config/workload_yaml.h"
#include "train/train_report.h"
#include "train/trainer.h"

namespace trainbench::cli {

namespace {

struct TrainArgs {
  train::TrainOptions options;
  std::string calibrate;
  StagedTrainArgs staged;
};

int RunCalibration(train::TrainFunction train_fn, TrainArgs& args, const CLI::App& command) {
  if (command.count("--batch-size") > 0)
    throw UsageError(
        "--calibrate times the workload's own batch size (reader.batch_size); drop --batch-size");
  if (args.options.data != "synthetic")
    throw UsageError("--calibrate measures compute alone: use --data synthetic");
  const auto loaded = config::LoadWorkload(args.calibrate, {});
  const auto& workload = loaded.config;
  const int64_t batch = static_cast<int64_t>(workload.reader.batch_size);
  args.options.batch_size = batch;
  args.options.epochs = 1;
  // A CPU times the largest batch that fits in memory and scales the step time to the
  // workload's batch (CPU step time grows with the batch about linearly).
  args.options.fit_batch_to_memory = true;
  if (command.count("--steps-per-epoch") == 0) args.options.steps_per_epoch = 20;
  if (workload.model.name.find("resnet") == std::string::npos)
    std::fprintf(stderr,
                 "trainbench: warning: workload %s models '%s'; timing %s at its batch size "
                 "instead\n",
                 workload.workload_name.c_str(), workload.model.name.c_str(),
                 args.options.model.c_str());
  const train::TrainResult result = train_fn(args.options);
  const double scale = static_cast<double>(batch) / static_cast<double>(result.batch_size);
  const double p50 = train::Percentile(result.step_seconds, 50) * scale;
  if (result.batch_size != batch)
    fmt::print("Timed at batch {} (batch {} does not fit in memory) and scaled by {:.2f}\n",
               result.batch_size, batch, scale);
  fmt::print(
      "Calibration: {} at batch {} on {}: compute time per step p50 {:.4f} s, p99 {:.4f} s "
      "({:.1f} images/s)\n",
      workload.workload_name, batch, result.device_description, p50,
      train::Percentile(result.step_seconds, 99) * scale, static_cast<double>(batch) / p50);
  fmt::print("Emulate this accelerator with:\n  trainbench run {} train.computation_time={:.6f}\n",
             args.calibrate, p50);
  fmt::print("train.computation_time={:.6f}\n", p50);
  return 0;
}

// Trains and returns the job's JSON line (empty on processes other than rank 0: across
// processes rank 0 alone prints it).
std::string TrainLine(train::TrainFunction train_fn, const train::TrainOptions& options) {
  const train::TrainResult result = train_fn(options);
  return result.rank == 0 ? train::MetricsLine(options, result) : "";
}

int Run(TrainArgs& args, const CLI::App& command) {
  // Before training, not after it: a missing folder must not cost the run and its JSON.
  if (!args.options.save_path.empty()) CheckWritableFile(args.options.save_path, "--save");
  const bool staged = !args.staged.stage_to.empty();
  if (!staged) {
    if (IsRemoteData(args.options.data))
      throw UsageError(fmt::format(
          "--data {}: a remote dataset is staged before training: add --stage-to DIR (a "
          "local folder for it)",
          args.options.data));
    for (const char* flag : {"--stage-streams", "--s3-option"})
      if (command.count(flag) > 0)
        throw UsageError(fmt::format("{} goes with --stage-to DIR", flag));
  } else if (!args.calibrate.empty()) {
    throw UsageError("--calibrate measures compute alone on synthetic data: drop --stage-to");
  }
  if (!args.calibrate.empty() && command.count("--output") > 0)
    throw UsageError("--calibrate prints its figure and keeps no results: drop --output");
  CheckInterval(args.staged.interval);
  try {
    if (staged) {
      // Loaded before the stage: a build without LibTorch must not fetch a dataset to say so.
      train::TrainFunction staged_fn = nullptr;
      return RunStagedTrain(
          args.staged, args.options, [&] { staged_fn = LoadTrainPlugin(); },
          [&] { return TrainLine(staged_fn, args.options); });
    }
    const train::TrainFunction train_fn = LoadTrainPlugin();
    if (!args.calibrate.empty()) return RunCalibration(train_fn, args, command);
    // With --output the job keeps results like `run`'s: summary.json (the JSON line's
    // figures) and timeseries.csv. Checked before training: a bad folder must not cost it.
    const bool keep = command.count("--output") > 0;
    if (keep) CheckWritableFolder(args.staged.output, "--output");
    const std::string started = UtcStamp();
    metrics::LiveCounters live;
    if (keep) args.options.live = &live;
    JobTimeseries sampling(keep ? args.staged.interval : 0, nullptr, &live);
    const std::string line = TrainLine(train_fn, args.options);
    const TimeseriesResult timeseries = sampling.Finish();
    std::string unwritten;
    if (keep && !line.empty())
      unwritten = WriteJobResults(args.staged.output, "train", started, nlohmann::json::parse(line),
                                  timeseries);
    if (!line.empty()) fmt::print("{}\n", line);
    std::fflush(stdout);
    if (!unwritten.empty()) throw RuntimeError("the results could not be written: " + unwritten);
    return 0;
  } catch (const train::CudaUnavailableError&) {
    // The exact line PyTorch training scripts print, which harnesses look for.
    std::fflush(stdout);
    std::fputs("[ERROR] CUDA not available and --allow-cpu not specified\n", stdout);
    return static_cast<int>(ExitCode::kRuntime);
  }
}

}  // namespace

void AddTrainCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "train",
      "Real training: a torchvision ResNet (default ResNet-50) with LibTorch on synthetic or "
      "JPEG data; progress lines, then a final JSON line {\"radix_metrics\": {...}}");
  static TrainArgs args;
  auto& o = args.options;
  command->add_option("--lr", o.lr, "Learning rate (SGD, momentum 0.9)")
      ->check(PositiveFinite())
      ->capture_default_str();
  command->add_option("--batch-size", o.batch_size, "Images per step")->capture_default_str();
  command->add_option("--epochs", o.epochs, "Epochs")->capture_default_str();
  command->add_option("--steps-per-epoch", o.steps_per_epoch, "Timed steps per epoch")
      ->capture_default_str();
  command
      ->add_option("--warmup-steps", o.warmup_steps,
                   "Untimed steps before the first epoch (cuDNN autotuning, allocator)")
      ->capture_default_str();
  command->add_flag("--allow-cpu", o.allow_cpu, "Run on the CPU when CUDA is not available");
  command->add_option("--model", o.model, "resnet18, resnet34, resnet50, resnet101, resnet152")
      ->capture_default_str();
  command
      ->add_option("--precision", o.precision,
                   "fp32, tf32 (CUDA), bf16 (autocast) or fp16 (autocast + loss scaling, CUDA)")
      ->capture_default_str();
  command->add_flag("--channels-last", o.channels_last, "NHWC memory format for weights and data");
  command->add_flag("--zero-init-residual", o.zero_init_residual,
                    "Zero the last BatchNorm of each residual block (torchvision's option)");
  command->add_option("--device", o.device, "cuda, cuda:N or cpu")->capture_default_str();
  command->add_option("--threads", o.threads, "CPU threads for LibTorch (default: every core)")
      ->check(AtLeast(0));
  command
      ->add_option("--data", o.data,
                   "synthetic, or a folder of class folders of JPEGs, a tar of them (ImageNet's "
                   "too), or a trainbench jpeg dataset; with --stage-to also an http(s):// or "
                   "s3:// URL of one")
      ->capture_default_str();
  command->add_option("--workers", o.workers, "JPEG decoding threads (default: min(8, cores))")
      ->check(AtLeast(0));
  command->add_option("--image-size", o.image_size, "Training crop size in pixels")
      ->capture_default_str();
  command->add_option("--seed", o.seed, "Seed for weights, synthetic data, order, augmentation")
      ->check(AtLeast(0))
      ->capture_default_str();
  command->add_option("--weight-decay", o.weight_decay, "SGD weight decay")
      ->check(NonNegativeFinite())
      ->capture_default_str();
  command->add_option("--momentum", o.momentum, "SGD momentum")
      ->check(NonNegativeFinite())
      ->capture_default_str();
  command
      ->add_option("--log-interval", o.log_interval,
                   "Steps between progress lines (on a GPU the loss is read back only then)")
      ->capture_default_str();
  command->add_flag("--cuda-graphs,!--no-cuda-graphs", o.cuda_graphs,
                    "Capture the step (forward, backward, optimizer) in a CUDA graph after "
                    "warm-up and replay it (default on CUDA)");
  command
      ->add_option("--dist-timeout", o.dist_timeout_seconds,
                   "Seconds for the processes of a multi-process run to meet, and for each "
                   "exchange")
      ->check(PositiveFinite())
      ->capture_default_str();
  command
      ->add_option("--dist-backend", o.dist_backend,
                   "c10d backend of a launched (torchrun/mpirun) job: auto (NCCL on GPUs where "
                   "built with it, else Gloo), nccl, or gloo (also for several processes on one "
                   "GPU, which NCCL refuses)")
      ->check(CLI::IsMember({"auto", "nccl", "gloo"}))
      ->capture_default_str();
  command->add_flag("--grad-buckets,!--no-grad-buckets", o.grad_buckets,
                    "Average gradients in persistent ~25 MiB buckets that backward fills, each "
                    "all-reduced as soon as it is full (default); --no-grad-buckets gathers "
                    "them into one buffer per step instead");
  command
      ->add_option("--scaling-baseline", o.scaling_baseline,
                   "images/s of one GPU (or process) alone: the JSON then reports scaling "
                   "efficiency of a multi-process run against it")
      ->check(PositiveFinite());
  command->add_flag("--fused-bn,!--no-fused-bn", o.fused_bn,
                    "Fused BatchNorm + ReLU (+ residual add) CUDA kernels for channels-last "
                    "training (default on where built with CUDA)");
  command
      ->add_option("--on-bad-image", o.on_bad_image,
                   "An image that does not decode: skip (warn, count in the JSON) or fail")
      ->capture_default_str();
  command->add_option("--save", o.save_path,
                      "Write the trained state dict here (PyTorch format: torch.load reads it)");
  command->add_option("--stage-to", args.staged.stage_to,
                      "Stage --data into this local folder first, as `trainbench stage` does (a "
                      ".tar is extracted while it downloads; an s3:// prefix or a folder keeps its "
                      "layout), then train on it; the job's time account (compute, transfer, "
                      "wasted) goes to <--output>/train-<UTC stamp>/summary.json for `trainbench "
                      "stage --report`");
  command->add_option("--output", args.staged.output,
                      "Folder for the job's results, <--output>/train-<UTC stamp>/ (summary.json, "
                      "timeseries.csv); default ./results with --stage-to, none without");
  command
      ->add_option("--interval", args.staged.interval,
                   "Seconds per row of timeseries.csv in the results (images/s, data wait, "
                   "CPU, memory; staged bytes with --stage-to; default 1; 0: none)")
      ->check(NonNegativeFinite());
  command
      ->add_option("--stage-streams", args.staged.streams,
                   "With --stage-to: ranged GETs in flight (default 4)")
      ->check(AtLeast(1));
  command->add_option("--s3-option", args.staged.s3_options,
                      "With --stage-to: KEY=VALUE of storage_options for an s3:// --data "
                      "(endpoint_url, s3_force_path_style, ...; repeatable)");
  command->add_option("--calibrate", args.calibrate,
                      "Time WORKLOAD's batch size on this device and print the "
                      "train.computation_time override for `trainbench run`");
  command->callback([&action, command] { action = [command] { return Run(args, *command); }; });
}

}  // namespace trainbench::cli
