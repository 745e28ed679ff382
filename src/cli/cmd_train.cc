// `trainbench train`: real ResNet training with LibTorch (src/train/), the flags and output
// of the PyTorch scripts users compare against, and `--calibrate WORKLOAD` to turn a measured
// step time into the computation_time override for `trainbench run`. The LibTorch code is a plugin
// loaded at run time (app/train_plugin.h); without it the command says how to get
// LibTorch. `--stage-to DIR` stages a remote --data first and keeps the job's time account
// (app/staged_train_job.h). The job itself is app's TrainJob.
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app/train_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/validators.h"
#include "common/error.h"
#include "common/output_path.h"

namespace trainbench::cli {

namespace {

struct TrainArgs {
  app::TrainJobOptions job;
  std::vector<std::string> s3_options;  // KEY=VALUE
};

// Flags that do not go together, refused before any work.
void CheckFlags(const TrainArgs& args, const CLI::App& command) {
  const auto& job = args.job;
  if (!job.train.save_path.empty()) CheckWritableFile(job.train.save_path, "--save");
  if (!job.train.op_log.empty()) CheckWritableFile(job.train.op_log, "--op-log");
  if (job.staged.stage_to.empty()) {
    if (app::IsRemoteData(job.train.data))
      throw UsageError(fmt::format(
          "--data {}: a remote dataset is staged before training: add --stage-to DIR (a "
          "local folder for it)",
          job.train.data));
    for (const char* flag : {"--stage-streams", "--s3-option"})
      if (command.count(flag) > 0)
        throw UsageError(fmt::format("{} goes with --stage-to DIR", flag));
  } else if (!job.calibrate.empty()) {
    throw UsageError("--calibrate measures compute alone on synthetic data: drop --stage-to");
  }
  if (!job.calibrate.empty()) {
    if (command.count("--output") > 0)
      throw UsageError("--calibrate prints its figure and keeps no results: drop --output");
    if (command.count("--batch-size") > 0)
      throw UsageError(
          "--calibrate times the workload's own batch size (reader.batch_size); drop "
          "--batch-size");
    if (job.train.data != "synthetic")
      throw UsageError("--calibrate measures compute alone: use --data synthetic");
  }
  CheckInterval(job.staged.interval_s);
}

int Run(TrainArgs& args, const CLI::App& command) {
  CheckFlags(args, command);
  auto job = args.job;
  job.staged.s3_options = ParseS3Options(args.s3_options);
  job.keep_results = command.count("--output") > 0 || !job.staged.stage_to.empty();
  job.steps_given = command.count("--steps-per-epoch") > 0;
  const app::TrainJobOutcome outcome = app::TrainJob(std::move(job));
  fmt::print("{}", outcome.calibration);
  const int code = ShowJobOutcome(outcome.shown);
  if (outcome.cuda_unavailable) {
    // The exact line PyTorch training scripts print, which harnesses look for.
    std::fputs("[ERROR] CUDA not available and --allow-cpu not specified\n", stdout);
    return static_cast<int>(ExitCode::kRuntime);
  }
  if (outcome.failure) std::rethrow_exception(outcome.failure);
  return code;
}

}  // namespace

void AddTrainCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "train",
      "Real training: a torchvision ResNet (default ResNet-50) with LibTorch on synthetic or "
      "JPEG data; progress lines, then a final JSON line {\"radix_metrics\": {...}}");
  static TrainArgs args;
  auto& o = args.job.train;
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
  command->add_option("--op-log", o.op_log,
                      "Record every image read in FILE (sai3-bench's op-log columns; .tsv.zst: "
                      "zstd; one file per process when launched), for `trainbench replay`");
  command->add_option("--save", o.save_path,
                      "Write the trained state dict here (PyTorch format: torch.load reads it)");
  command->add_option("--stage-to", args.job.staged.stage_to,
                      "Stage --data into this local folder first, as `trainbench stage` does (a "
                      ".tar is extracted while it downloads; an s3:// prefix or a folder keeps its "
                      "layout), then train on it; the job's time account (compute, transfer, "
                      "wasted) goes to <--output>/train-<UTC stamp>/summary.json for `trainbench "
                      "stage --report`");
  command->add_option("--output", args.job.staged.output,
                      "Folder for the job's results, <--output>/train-<UTC stamp>/ (summary.json, "
                      "timeseries.csv); default ./results with --stage-to, none without");
  command
      ->add_option("--interval", args.job.staged.interval_s,
                   "Seconds per row of timeseries.csv in the results (images/s, data wait, "
                   "CPU, memory; staged bytes with --stage-to; default 1; 0: none)")
      ->check(NonNegativeFinite());
  command
      ->add_option("--stage-streams", args.job.staged.streams,
                   "With --stage-to: ranged GETs in flight (default 4)")
      ->check(AtLeast(1));
  command->add_option("--s3-option", args.s3_options,
                      "With --stage-to: KEY=VALUE of storage_options for an s3:// --data "
                      "(endpoint_url, s3_force_path_style, ...; repeatable)");
  command->add_flag("!--no-progress", args.job.progress,
                    "No live status block under the progress lines on a terminal");
  command->add_option("--calibrate", args.job.calibrate,
                      "Time WORKLOAD's batch size on this device and print the "
                      "train.computation_time override for `trainbench run`");
  command->callback([&action, command] { action = [command] { return Run(args, *command); }; });
}

}  // namespace trainbench::cli
