// `trainbench train`: real ResNet training with LibTorch (src/train/), the flags and output
// of the PyTorch scripts users compare against, and `--calibrate WORKLOAD` to turn a measured
// step time into the computation_time override for `trainbench run`. The LibTorch code is a plugin
// loaded at run time (app/train/train_plugin.h); without it the command says how to get
// LibTorch. An s3:// --data streams through the storage layer into the decode workers;
// `--stage-to DIR` stages a remote --data first and keeps the job's time account
// (app/train/staged_train_job.h). The job itself is app's TrainJob.

#include <exception>
#include <string>
#include <vector>

#include "app/train/train_job.h"
#include "cli/command.h"
#include "cli/job_output.h"
#include "cli/shared_flags.h"

namespace trainbench::cli {

namespace {

struct TrainArgs {
  app::TrainJobOptions job;
  std::vector<std::string> s3_options;  // KEY=VALUE
};

int Run(TrainArgs& args, const CLI::App& command) {
  auto job = args.job;
  job.staged.s3_options = ParseS3Options(args.s3_options);
  job.given = {command.count("--output") > 0, command.count("--batch-size") > 0,
               command.count("--steps-per-epoch") > 0, command.count("--stage-streams") > 0};
  const app::TrainJobOutcome outcome = app::TrainJob(std::move(job));
  const int code = ShowJobReport(outcome);
  if (outcome.failure) std::rethrow_exception(outcome.failure);
  return code;
}

}  // namespace

void AddTrainCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "train",
      "Real training: a torchvision ResNet (default ResNet-50) with LibTorch on synthetic or "
      "JPEG data; progress lines, then a final JSON line {\"radix_metrics\": {...}}");
  command->footer(
      "Examples:\n"
      "  trainbench train --allow-cpu --batch-size 32 --steps-per-epoch 20\n"
      "  mpirun -np 8 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29500 trainbench train --precision "
      "bf16\n"
      "  trainbench train --data s3://bucket/imagenet --s3-option "
      "endpoint_url=http://10.0.0.5:7480 --op-log reads.tsv.zst\n"
      "  trainbench train --data https://origin/imagenet.tar --stage-to /data/in --output results\n"
      "  trainbench train --calibrate resnet50_h100   # run's train.computation_time for this GPU\n"
      "More: docs/training.md");
  static TrainArgs args;
  auto& o = args.job.train;
  auto& staged = args.job.staged;
  // These defaults are the training's own: shown in --help.
  command->option_defaults()->always_capture_default();
  command->add_option("--lr", o.lr, "Learning rate (SGD)")->check(PositiveFinite());
  command->add_option("--batch-size", o.batch_size, "Images per step")->check(Between(1, 65536));
  // A bound that no training reaches: each epoch keeps a result row.
  command->add_option("--epochs", o.epochs, "Epochs")->check(Between(1, 1000000));
  command->add_option("--steps-per-epoch", o.steps_per_epoch, "Timed steps per epoch")
      ->check(Between(1, 1000000000));
  command->add_option("--warmup-steps", o.warmup_steps, "Untimed steps before the first epoch")
      ->check(Between(0, 1000000));
  command->add_option("--model", o.model, "resnet18, resnet34, resnet50, resnet101, resnet152");
  command->add_option("--precision", o.precision,
                      "fp32, tf32 (CUDA), bf16 (autocast) or fp16 (autocast, loss scaling, CUDA)");
  command->add_option("--device", o.device, "cuda, cuda:N or cpu");
  command->add_option("--data", o.data,
                      "synthetic, or a folder of class folders of JPEGs, a tar of them, a "
                      "trainbench jpeg dataset; an s3://bucket/prefix of the same (or a .tar "
                      "object) or an http(s):// URL of one .tar, read in place by ranged GETs; "
                      "any URL with --stage-to (an http(s) folder only so)");
  command->add_option("--image-size", o.image_size, "Training crop size in pixels")
      ->check(Between(32, 4096));
  command->add_option("--seed", o.seed, "Seed for weights, data, order, augmentation")
      ->check(AtLeast(0));
  command->add_option("--weight-decay", o.weight_decay, "SGD weight decay")
      ->check(NonNegativeFinite());
  command->add_option("--momentum", o.momentum, "SGD momentum")->check(NonNegativeFinite());
  command
      ->add_option("--log-interval", o.log_interval,
                   "Steps between progress lines (a GPU reads the loss back only then)")
      ->check(AtLeast(1));
  command
      ->add_option("--dist-timeout", o.dist_timeout_seconds,
                   "Seconds for a launched job's processes to meet, and for each exchange")
      ->check(PositiveFinite());
  command
      ->add_option("--dist-backend", o.dist_backend,
                   "c10d backend under torchrun/mpirun: auto (NCCL on GPUs, else Gloo), nccl, "
                   "gloo (also for several processes on one GPU)")
      ->check(CLI::IsMember({"auto", "nccl", "gloo"}));
  command->add_option("--on-bad-image", o.on_bad_image,
                      "An image that does not decode: skip (warn, count in the JSON) or fail");
  command->option_defaults()->always_capture_default(false);
  command->add_flag("--allow-cpu", o.allow_cpu, "Run on the CPU when CUDA is not available");
  command->add_flag("--channels-last", o.channels_last, "NHWC memory format for weights and data");
  command->add_flag("--zero-init-residual", o.zero_init_residual,
                    "Zero each residual block's last BatchNorm (torchvision's option)");
  // A thread each, as run's --io-threads: beyond 1024 a typo, not a setting.
  command->add_option("--threads", o.threads, "CPU threads for LibTorch (default: every core)")
      ->check(Between(0, 1024));
  command->add_option("--workers", o.workers, "JPEG decoding threads (default: min(8, cores))")
      ->check(Between(0, 1024));
  // As run's --io-depth: a read in flight per worker at most is what a plain DataLoader does.
  command
      ->add_option("--io-depth", o.io_depth,
                   "Image reads in flight per decode worker, at most a batch (default: 16 on "
                   "S3 or http(s), 1 on a file system)")
      ->check(Between(0, 1024));
  command->add_flag("--cuda-graphs,!--no-cuda-graphs", o.cuda_graphs,
                    "Replay the step from a CUDA graph captured after warm-up (default on CUDA)");
  command->add_flag("--grad-buckets,!--no-grad-buckets", o.grad_buckets,
                    "All-reduce gradients in ~25 MiB buckets as backward fills them (default), "
                    "or in one buffer a step");
  command
      ->add_option("--scaling-baseline", o.scaling_baseline,
                   "images/s of one GPU alone: the JSON then reports scaling efficiency")
      ->check(PositiveFinite());
  command->add_flag("--fused-bn,!--no-fused-bn", o.fused_bn,
                    "Fused BatchNorm + ReLU (+ add) kernels over channels-last activations, on the "
                    "CPU and CUDA (default on)");
  AddOpLogFlag(*command, o.op_log, "every image read, for `trainbench replay`,");
  // Hidden (no group): a test's stand-in for the host's free memory (TrainOptions).
  command->add_option("--available-bytes", o.available_bytes)->group("");
  command->add_option("--save", o.save_path, "Write the trained state dict (torch.load reads it)");
  command->add_option("--stage-to", staged.stage_to,
                      "Stage --data into this folder first (as `trainbench stage`; a tar is "
                      "extracted as it comes), then train: one time account in --output");
  AddOutputFlag(*command, staged.output,
                "in <DIR>/train-<UTC stamp>/ (default ./results with --stage-to, none without)");
  AddIntervalFlag(*command, staged.interval_s,
                  "images/s, data wait, CPU, memory; staged bytes with --stage-to");
  command
      ->add_option("--stage-streams", staged.streams,
                   "With --stage-to: ranged GETs in flight (default 4)")
      ->check(AtLeast(1));
  AddS3OptionFlag(*command, args.s3_options,
                  "an s3:// --data, read in place or staged with --stage-to");
  AddNoProgressFlag(*command, args.job.progress);
  command->add_option("--calibrate", args.job.calibrate,
                      "Time WORKLOAD's batch on this device and print the train.computation_time "
                      "override for `trainbench run`: the mean compute per step, with its stdev "
                      "(with --data DIR or s3://: each step less its data wait, the loader "
                      "decoding beside it, as in real training)");
  command->callback([&action, command] {
    action = [command] { return WithS3OptionFlag([command] { return Run(args, *command); }); };
  });
}

}  // namespace trainbench::cli
