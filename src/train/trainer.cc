#include "train/trainer.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "common/clock.h"
#include "common/host_name.h"
#include "common/interrupt.h"
#include "common/units.h"
#include "image/image_folder.h"
#include "metrics/process_stats.h"
#include "train/batch_source.h"
#include "train/cuda_graph_step.h"
#include "train/data_parallel.h"
#include "train/device.h"
#include "train/device_pipeline.h"
#include "train/fused_batch_norm.h"
#include "train/grad_scaler.h"
#include "train/image_loader.h"
#include "train/memory_estimate.h"
#include "train/resnet.h"
#include "train/sgd.h"
#include "train/state_dict.h"
#include "train/train_report.h"
#include "train/train_step.h"

namespace trainbench::train {

namespace {

void Print(const TrainOptions& options, const std::string& line) {
  if (options.quiet) return;
  if (options.print) return options.print(line);
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

void Validate(const TrainOptions& o) {
  // Batch norm in training divides by the batch's variance: one image per process has none
  // (LibTorch's "Expected more than 1 value per channel when training").
  if (o.batch_size < 2)
    throw UsageError(fmt::format(
        "--batch-size {}: batch norm (in every ResNet here) needs a batch of 2 or more images "
        "per process in training; give --batch-size 2 or more",
        o.batch_size));
  if (o.epochs < 1) throw UsageError("--epochs must be at least 1");
  if (o.steps_per_epoch < 1) throw UsageError("--steps-per-epoch must be at least 1");
  if (o.warmup_steps < 0) throw UsageError("--warmup-steps must be 0 or more");
  // The stem's stride 32 overall still leaves a 1x1 map at 32 pixels.
  if (o.image_size < 32) throw UsageError("--image-size must be at least 32");
  if (o.lr <= 0) throw UsageError("--lr must be positive");
  if (o.log_interval < 1) throw UsageError("--log-interval must be at least 1");
  if (!o.op_log.empty() && o.data == "synthetic")
    throw UsageError(
        "--op-log records the images training reads; --data synthetic reads none: "
        "give --data DIR|URL");
  if (o.on_bad_image != "skip" && o.on_bad_image != "fail")
    throw UsageError(fmt::format("--on-bad-image {}: choose skip or fail", o.on_bad_image));
  const auto names = ResNetNames();
  if (std::find(names.begin(), names.end(), o.model) == names.end())
    MakeResNet(o.model, o.num_classes, false);  // throws the UsageError listing the names
}

c10::Device ChooseDevice(const TrainOptions& o, const LaunchInfo& launch) {
  if (o.device == "cpu") return c10::Device(c10::DeviceType::CPU);
  if (o.device.rfind("cuda", 0) != 0)
    throw UsageError(fmt::format("--device {}: use cuda, cuda:N or cpu", o.device));
  if (!CudaAvailable()) {
    if (!o.allow_cpu) throw CudaUnavailableError();
    return c10::Device(c10::DeviceType::CPU);
  }
  c10::Device device(o.device);
  // A concrete index, so tensors already there compare equal and are not copied again.
  // Several processes on a host take one GPU each, by local rank, as torchrun's users do.
  if (!device.has_index()) device.set_index(static_cast<c10::DeviceIndex>(launch.local_rank));
  return device;
}

std::unique_ptr<BatchSource> MakeSource(const TrainOptions& o, const c10::Device& device,
                                        const LaunchInfo& launch,
                                        std::shared_ptr<metrics::OpLog> op_log, int64_t batches,
                                        std::string& description) {
  if (o.data == "synthetic") {
    description = "synthetic";
    return MakeSyntheticSource({o.batch_size, o.image_size, o.num_classes, o.channels_last, o.seed,
                                launch.rank, launch.world_size},
                               device);
  }
  image::ImageIndex index = image::IndexImages(o.data, o.storage_options);
  if (static_cast<int64_t>(index.classes.size()) > o.num_classes)
    throw UsageError(fmt::format("--data {}: {} classes, but the model has {} outputs", o.data,
                                 index.classes.size(), o.num_classes));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ImageLoaderOptions lo;
  lo.batch_size = o.batch_size;
  lo.image_size = o.image_size;
  lo.skip_bad_images = o.on_bad_image == "skip";
  lo.pin_memory = device.is_cuda();
  lo.workers = o.workers > 0 ? o.workers : std::min(8, cores);
  lo.seed = o.seed;
  lo.rank = launch.rank;
  lo.world_size = launch.world_size;
  lo.op_log = std::move(op_log);
  lo.storage_options = o.storage_options;
  lo.io_depth = o.io_depth;
  lo.io = o.live_io;
  lo.batches = batches;
  description = o.data;
  const size_t images = index.samples.size(), classes = index.classes.size();
  auto loader = std::make_unique<ImageLoader>(std::move(index), lo);
  Print(o, fmt::format("Data: {} ({} images, {} classes), {} decode workers, reads: {} per worker",
                       o.data, images, classes, lo.workers, loader->reader().Describe()));
  return loader;
}

// A CPU batch whose activations cannot fit in memory is refused before it starts (the OOM
// killer would end it mid-step), or shrunk when the caller allows (--calibrate).
void FitCpuMemory(TrainOptions& o) {
  const uint64_t available =
      o.available_bytes > 0 ? o.available_bytes : metrics::AvailableMemoryBytes();
  const uint64_t needed = CpuTrainingBytes(o.model, o.batch_size, o.image_size);
  const uint64_t usable = available / 10 * 9;
  if (available == 0 || needed <= usable) return;
  const int64_t fits = LargestCpuBatch(o.model, o.image_size, usable);
  if (o.fit_batch_to_memory && fits >= 2) {  // batch norm needs 2 (Validate)
    Print(o, fmt::format("Batch {} of {} needs about {} on the CPU, {} is available: timing "
                         "batch {} instead",
                         o.batch_size, o.model, FormatBytes(static_cast<double>(needed)),
                         FormatBytes(static_cast<double>(available)), fits));
    o.batch_size = fits;
    return;
  }
  throw UsageError(fmt::format(
      "--batch-size {} of {} at {}x{} needs about {} of memory on the CPU, {} is available: "
      "lower --batch-size (about {} fits) or --image-size",
      o.batch_size, o.model, o.image_size, o.image_size, FormatBytes(static_cast<double>(needed)),
      FormatBytes(static_cast<double>(available)), fits));
}

// Channels-last weights let cuDNN and oneDNN pick NHWC kernels without layout conversions.
void ToChannelsLast(torch::nn::Module& model) {
  c10::NoGradGuard no_grad;
  for (auto& p : model.parameters())
    if (p.dim() == 4) p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
}

}  // namespace

TrainResult Train(const TrainOptions& options) {
  Validate(options);
  const LaunchInfo launch = ReadLaunchEnvironment();
  TrainOptions o = options;
  if (launch.rank != 0) o.quiet = true;  // rank 0 speaks for the job
  const Precision precision = ParsePrecision(o.precision);
  const c10::Device device = ChooseDevice(o, launch);
  if (!device.is_cuda() && precision == Precision::kFp16)
    throw UsageError("--precision fp16 needs a CUDA device (CPU autocast runs bf16; use bf16)");
  if (!device.is_cuda() && precision == Precision::kTf32)
    throw UsageError("--precision tf32 is a CUDA tensor-core mode; on the CPU use fp32 or bf16");
  if (o.check_only) {  // what the job knows before its first step, for its first summary
    TrainResult checked;
    checked.device = device.is_cuda() ? "cuda" : "cpu";
    checked.device_description = DescribeDevice(device);
    return checked;
  }
  // A launched job forms its process group even as one process, as DDP scripts do: a
  // torchrun --nproc-per-node 1 job runs the same collectives as a larger one.
  std::unique_ptr<DataParallel> data_parallel;
  if (launch.world_size > 1 || launch.launcher != "none")
    data_parallel =
        std::make_unique<DataParallel>(launch, device, o.dist_timeout_seconds, o.dist_backend);
  ConfigureBackends(device, precision, o.threads);
  if (!device.is_cuda()) FitCpuMemory(o);

  TrainResult result;
  result.batch_size = o.batch_size;
  result.rank = launch.rank;
  result.world_size = launch.world_size;
  result.device = device.is_cuda() ? "cuda" : "cpu";
  result.device_description = DescribeDevice(device);
  if (o.device.rfind("cuda", 0) == 0 && !device.is_cuda())
    Print(o, "CUDA not available; running on the CPU (--allow-cpu)");
  Print(o, fmt::format("Using device: {} ({})", result.device, result.device_description));
  if (data_parallel) result.dist_backend = data_parallel->backend();

  at::manual_seed(o.seed);
  // The fused kernels take channels-last CUDA activations.
  result.fused_batch_norm =
      o.fused_bn && device.is_cuda() && o.channels_last && FusedBatchNormAvailable();
  ResNet model = MakeResNet(o.model, o.num_classes, o.zero_init_residual, result.fused_batch_norm);
  for (const auto& p : model->parameters()) result.parameters += p.numel();
  model->to(device);
  if (o.channels_last) ToChannelsLast(*model);
  model->train();
  // Every process starts from rank 0's weights.
  if (data_parallel) {
    data_parallel->Broadcast(model->parameters());
    if (o.grad_buckets) data_parallel->AttachGradientBuckets(model->parameters());
    result.gradient_sync =
        data_parallel->bucketed()
            ? fmt::format("buckets {}{}", data_parallel->buckets(),
                          data_parallel->overlapped() ? ", overlapped with backward" : "")
            : "flatten";
    Print(o,
          fmt::format("Data parallel: {} processes ({}), {} over {}:{}, batch {} per process, "
                      "gradients: {}",
                      launch.world_size, launch.launcher, data_parallel->backend(),
                      launch.master_addr, launch.master_port, o.batch_size, result.gradient_sync));
  }
  Sgd optimizer(model->parameters(), {o.lr, o.momentum, o.weight_decay});
  GradScaler scaler(device);
  TrainStep train_step(model, optimizer, scaler, device, precision, o.channels_last,
                       data_parallel.get());
  // Graphs need static shapes (every batch is full here) and a step to capture after the
  // warm-up; on the CPU there is nothing to capture.
  // Collectives between processes are not captured: several processes run eagerly.
  result.cuda_graphs = o.cuda_graphs && device.is_cuda() && CudaGraphsAvailable() &&
                       o.warmup_steps >= 1 && !data_parallel;
  // The loss is read every --log-interval steps only: on a GPU a read waits for the device.
  result.loss_read_interval = o.log_interval;
  Print(o, fmt::format("Model: {} ({} parameters), precision {}, channels-last {}, batch {}, "
                       "image {}x{}, lr {}, CUDA graphs {}{}{}",
                       o.model, result.parameters, o.precision, o.channels_last ? "on" : "off",
                       o.batch_size, o.image_size, o.image_size, o.lr,
                       result.cuda_graphs ? "on" : "off", optimizer.fused() ? ", fused SGD" : "",
                       result.fused_batch_norm ? ", fused BatchNorm+ReLU" : ""));
  std::shared_ptr<metrics::OpLog> op_log;
  // The log's endpoint is the storage the reads go through (a tar's folder, not the tar), so
  // `replay` finds each object under it.
  if (!o.op_log.empty())
    op_log = std::make_shared<metrics::OpLog>(
        metrics::RankOpLogPath(o.op_log, launch.rank, launch.world_size),
        fmt::format("{}:{}", LocalHostName(), launch.rank),
        image::ResolveImageLocation(o.data).storage_uri);
  // Every batch the steps below take (warm-up, the graph's capture, the timed steps): the
  // loader reads none past them.
  const int64_t batches =
      o.warmup_steps + (result.cuda_graphs ? 1 : 0) + o.epochs * o.steps_per_epoch;
  auto source = MakeSource(o, device, launch, op_log, batches, result.data);
  auto* image_loader = dynamic_cast<ImageLoader*>(source.get());
  DeviceFeeder feeder(device);
  std::unique_ptr<GraphedStep> graphed;

  // Queues one step; returns the loss tensor (not read) and adds the time the host waited
  // for the batch to `wait_seconds`.
  bool timed = false;  // the live counters see the timed steps only
  auto step = [&](double& wait_seconds) {
    const double t0 = NowSeconds();
    if (timed && o.live) o.live->StartWait(t0);
    Batch batch = source->Next();
    const double waited = NowSeconds() - t0;
    wait_seconds += waited;
    if (timed && o.live) o.live->EndWait(t0, waited);
    const Batch on_device = feeder.ToDevice(batch);
    if (graphed) return graphed->Run(on_device.images, on_device.labels);
    return train_step.Run(on_device.images, on_device.labels);
  };
  auto read = [](const at::Tensor& loss) { return loss.to(at::kFloat).item<double>(); };

  InstallInterruptHandler();
  const int64_t steps = o.epochs * o.steps_per_epoch;
  try {
    double warmup_wait = 0;
    for (int64_t i = 0; i < o.warmup_steps; ++i) {
      const at::Tensor loss = step(warmup_wait);
      if (i == 0 || (i + 1) % o.log_interval == 0 || i + 1 == o.warmup_steps)
        Print(o,
              fmt::format("Warmup step [{}/{}] Loss: {:.4f}", i + 1, o.warmup_steps, read(loss)));
      if (InterruptRequested()) throw Interrupted();
    }
    if (result.cuda_graphs) {
      Batch batch = source->Next();
      const Batch on_device = feeder.ToDevice(batch);
      graphed = CaptureStep(train_step, on_device.images, on_device.labels, o.data == "synthetic");
      Print(o, "Captured the training step in a CUDA graph");
    }
    Synchronize(device);
    if (data_parallel) data_parallel->Barrier();
    result.step_seconds.reserve(static_cast<size_t>(steps));
    result.step_wait_seconds.reserve(static_cast<size_t>(steps));
    StepClock clock(device);
    const double start = NowSeconds();
    clock.Start();
    double window_start = start;
    int64_t window_images = 0;
    timed = true;
    int64_t steps_done = 0;
    for (int64_t epoch = 1; epoch <= o.epochs && !result.interrupted; ++epoch) {
      if (o.live) o.live->SetPhase(metrics::LivePhase::kTrain, static_cast<uint64_t>(epoch));
      for (int64_t s = 1; s <= o.steps_per_epoch; ++s) {
        double waited = 0;
        const at::Tensor loss = step(waited);
        clock.StepDone();
        result.data_wait_seconds += waited;
        result.step_wait_seconds.push_back(waited);
        if (o.live) o.live->AddSamples(static_cast<uint64_t>(o.batch_size));
        // The host may queue two steps ahead of the device, no more: batches in flight
        // stay bounded and the data wait still shows a starving device.
        clock.Throttle(2);
        window_images += o.batch_size;
        if (s % o.log_interval == 0 || s == o.steps_per_epoch) {
          const double value = read(loss);
          const double now = NowSeconds();
          result.losses.push_back(value);
          Print(o, ProgressLine(epoch, o.epochs, s, o.steps_per_epoch, value,
                                window_images / std::max(now - window_start, 1e-9)));
          window_start = now;
          window_images = 0;
        }
        ++steps_done;
        // Ctrl-C ends the training after this step, with the figures of the steps done.
        if (InterruptRequested()) {
          result.interrupted = true;
          break;
        }
      }
    }
    result.step_seconds = clock.Finish();
    result.steps_done = steps_done;
    if (o.live) o.live->SetPhase(metrics::LivePhase::kDone, static_cast<uint64_t>(o.epochs));
    result.elapsed_seconds = NowSeconds() - start;
    // The job took as long as its slowest process (whose peers, interrupted at other steps,
    // may not meet it in a collective).
    if (data_parallel && !result.interrupted)
      result.elapsed_seconds = data_parallel->Max(result.elapsed_seconds);
  } catch (const c10::Error& e) {
    if (IsOutOfMemory(e.what_without_backtrace()))
      throw RuntimeError(fmt::format(
          "{} ran out of memory at --batch-size {} ({}, image {}): lower --batch-size, e.g. {}",
          result.device_description, o.batch_size, o.model, o.image_size,
          std::max<int64_t>(1, o.batch_size / 2)));
    throw RuntimeError(fmt::format("training failed: {}", e.what_without_backtrace()));
  }
  result.total_images = o.batch_size * result.steps_done * launch.world_size;
  result.images_per_second = result.total_images / std::max(result.elapsed_seconds, 1e-9);
  result.images_per_second_per_process = result.images_per_second / launch.world_size;
  if (o.scaling_baseline > 0)
    result.scaling_efficiency = result.images_per_second_per_process / o.scaling_baseline;
  if (precision == Precision::kFp16) result.skipped_steps = scaler.skipped_steps();
  if (image_loader) {
    result.bad_images = image_loader->bad_images();
    result.storage_counters = image_loader->reader().StorageCounters();
  }
  if (op_log) {
    source.reset();  // its reader's last lines reach the log
    op_log->Close();
    result.op_log_line =
        fmt::format("op-log: {} operations in {}", op_log->Records(), op_log->path());
    Print(o, result.op_log_line);
  }
  if (!o.save_path.empty() && launch.rank == 0 && !result.interrupted) {
    SaveStateDict(*model, o.save_path);
    Print(o, fmt::format("Saved state dict ({} tensors) to {}",
                         model->named_parameters().size() + model->named_buffers().size(),
                         o.save_path));
  }
  return result;
}

}  // namespace trainbench::train
