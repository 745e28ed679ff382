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
#include "train/cpu/retained_heap.h"
#include "train/cpu/widened_conv.h"
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

// How gradients travel between processes, for the report.
std::string GradientSyncName(const DataParallel& data_parallel) {
  if (!data_parallel.bucketed()) return "flatten";
  return fmt::format("buckets {}{}", data_parallel.buckets(),
                     data_parallel.overlapped() ? ", overlapped with backward" : "");
}

// A CUDA out-of-memory names the batch to try; anything else from LibTorch says it failed.
RuntimeError TrainingFailed(const c10::Error& e, const TrainResult& result, const TrainOptions& o) {
  if (IsOutOfMemory(e.what_without_backtrace()))
    return RuntimeError(fmt::format(
        "{} ran out of memory at --batch-size {} ({}, image {}): lower --batch-size, e.g. {}",
        result.device_description, o.batch_size, o.model, o.image_size,
        std::max<int64_t>(1, o.batch_size / 2)));
  return RuntimeError(fmt::format("training failed: {}", e.what_without_backtrace()));
}

// One `train` run, its parts made in the order Train() calls them: the process group and
// the device's settings, the model and its optimizer, the data, the warm-up, the timed
// steps and the figures.
class TrainingRun {
 public:
  TrainingRun(const TrainOptions& options, const LaunchInfo& launch, Precision precision,
              const c10::Device& device)
      : o_(options), launch_(launch), precision_(precision), device_(device), feeder_(device) {}

  void Start();
  void BuildModel();
  void OpenData();
  void WarmUp();
  void TimeSteps();
  TrainResult Finish();

  const TrainResult& result() const { return result_; }
  const TrainOptions& options() const { return o_; }

 private:
  void AttachDataParallel();
  // Queues one step; returns the loss tensor (not read) and adds the time the host waited
  // for the batch to `wait_seconds`.
  at::Tensor Step(double& wait_seconds);
  static double Read(const at::Tensor& loss) { return loss.to(at::kFloat).item<double>(); }

  TrainOptions o_;
  const LaunchInfo launch_;
  const Precision precision_;
  const c10::Device device_;
  TrainResult result_;
  std::unique_ptr<DataParallel> data_parallel_;
  std::unique_ptr<RetainedHeap> heap_;
  ResNet model_{nullptr};
  std::unique_ptr<Sgd> optimizer_;
  std::unique_ptr<GradScaler> scaler_;
  std::unique_ptr<TrainStep> train_step_;
  std::shared_ptr<metrics::OpLog> op_log_;
  std::unique_ptr<BatchSource> source_;
  ImageLoader* image_loader_ = nullptr;
  DeviceFeeder feeder_;
  std::unique_ptr<GraphedStep> graphed_;
  bool timed_ = false;  // the live counters see the timed steps only
};

void TrainingRun::Start() {
  // A launched job forms its process group even as one process, as DDP scripts do: a
  // torchrun --nproc-per-node 1 job runs the same collectives as a larger one.
  if (launch_.world_size > 1 || launch_.launcher != "none")
    data_parallel_ =
        std::make_unique<DataParallel>(launch_, device_, o_.dist_timeout_seconds, o_.dist_backend);
  ConfigureBackends(device_, precision_, o_.threads);
  if (!device_.is_cuda()) {
    FitCpuMemory(o_);
    // oneDNN's convolutions run NHWC without reordering each activation, and the fused
    // batch norm takes it; torch.compile picks the same layout on the CPU. The report
    // keeps the layout asked for (the caller's options).
    o_.channels_last = true;
    heap_ = std::make_unique<RetainedHeap>();
  }
  result_.batch_size = o_.batch_size;
  result_.rank = launch_.rank;
  result_.world_size = launch_.world_size;
  result_.device = device_.is_cuda() ? "cuda" : "cpu";
  result_.device_description = DescribeDevice(device_);
  if (o_.device.rfind("cuda", 0) == 0 && !device_.is_cuda())
    Print(o_, "CUDA not available; running on the CPU (--allow-cpu)");
  Print(o_, fmt::format("Using device: {} ({})", result_.device, result_.device_description));
  if (data_parallel_) result_.dist_backend = data_parallel_->backend();
}

void TrainingRun::BuildModel() {
  at::manual_seed(o_.seed);
  // The fused kernels take channels-last activations.
  result_.fused_batch_norm = o_.fused_bn && o_.channels_last && FusedBatchNormAvailable(device_);
  model_ = MakeResNet(o_.model, o_.num_classes, o_.zero_init_residual, result_.fused_batch_norm);
  for (const auto& p : model_->parameters()) result_.parameters += p.numel();
  model_->to(device_);
  if (o_.channels_last) ToChannelsLast(*model_);
  model_->train();
  if (data_parallel_) AttachDataParallel();
  optimizer_ =
      std::make_unique<Sgd>(model_->parameters(), SgdOptions{o_.lr, o_.momentum, o_.weight_decay});
  scaler_ = std::make_unique<GradScaler>(device_);
  train_step_ = std::make_unique<TrainStep>(model_, *optimizer_, *scaler_, device_, precision_,
                                            o_.channels_last, data_parallel_.get());
  // Graphs need static shapes (every batch is full here) and a step to capture after the
  // warm-up; on the CPU there is nothing to capture.
  // Collectives between processes are not captured: several processes run eagerly.
  result_.cuda_graphs = o_.cuda_graphs && device_.is_cuda() && CudaGraphsAvailable() &&
                        o_.warmup_steps >= 1 && !data_parallel_;
  // The loss is read every --log-interval steps only: on a GPU a read waits for the device.
  result_.loss_read_interval = o_.log_interval;
  result_.widened_bf16_convolutions =
      device_.is_cpu() && precision_ == Precision::kBf16 && cpu::WidensBf16Convolutions();
  Print(o_,
        fmt::format("Model: {} ({} parameters), precision {}, channels-last {}, batch {}, "
                    "image {}x{}, lr {}, CUDA graphs {}{}{}{}",
                    o_.model, result_.parameters, o_.precision, o_.channels_last ? "on" : "off",
                    o_.batch_size, o_.image_size, o_.image_size, o_.lr,
                    result_.cuda_graphs ? "on" : "off", optimizer_->fused() ? ", fused SGD" : "",
                    result_.fused_batch_norm ? ", fused BatchNorm+ReLU" : "",
                    result_.widened_bf16_convolutions
                        ? ", bf16 convolutions on oneDNN's fp32 kernels (no AVX-512 here)"
                        : ""));
}

void TrainingRun::AttachDataParallel() {
  // Every process starts from rank 0's weights.
  data_parallel_->Broadcast(model_->parameters());
  if (o_.grad_buckets) data_parallel_->AttachGradientBuckets(model_->parameters());
  result_.gradient_sync = GradientSyncName(*data_parallel_);
  Print(o_, fmt::format("Data parallel: {} processes ({}), {} over {}:{}, batch {} per process, "
                        "gradients: {}",
                        launch_.world_size, launch_.launcher, data_parallel_->backend(),
                        launch_.master_addr, launch_.master_port, o_.batch_size,
                        result_.gradient_sync));
}

void TrainingRun::OpenData() {
  // The log's endpoint is the storage the reads go through (a tar's folder, not the tar), so
  // `replay` finds each object under it.
  if (!o_.op_log.empty())
    op_log_ = std::make_shared<metrics::OpLog>(
        metrics::RankOpLogPath(o_.op_log, launch_.rank, launch_.world_size),
        fmt::format("{}:{}", LocalHostName(), launch_.rank),
        image::ResolveImageLocation(o_.data).storage_uri);
  // Every batch the steps below take (warm-up, the graph's capture, the timed steps): the
  // loader reads none past them.
  const int64_t batches =
      o_.warmup_steps + (result_.cuda_graphs ? 1 : 0) + o_.epochs * o_.steps_per_epoch;
  source_ = MakeSource(o_, device_, launch_, op_log_, batches, result_.data);
  image_loader_ = dynamic_cast<ImageLoader*>(source_.get());
}

at::Tensor TrainingRun::Step(double& wait_seconds) {
  const double t0 = NowSeconds();
  if (timed_ && o_.live) o_.live->StartWait(t0);
  Batch batch = source_->Next();
  const double waited = NowSeconds() - t0;
  wait_seconds += waited;
  if (timed_ && o_.live) o_.live->EndWait(t0, waited);
  const Batch on_device = feeder_.ToDevice(batch);
  if (graphed_) return graphed_->Run(on_device.images, on_device.labels);
  return train_step_->Run(on_device.images, on_device.labels);
}

void TrainingRun::WarmUp() {
  double wait = 0;
  for (int64_t i = 0; i < o_.warmup_steps; ++i) {
    const at::Tensor loss = Step(wait);
    if (i == 0 || (i + 1) % o_.log_interval == 0 || i + 1 == o_.warmup_steps)
      Print(o_,
            fmt::format("Warmup step [{}/{}] Loss: {:.4f}", i + 1, o_.warmup_steps, Read(loss)));
    if (InterruptRequested()) throw Interrupted();
  }
  if (result_.cuda_graphs) {
    Batch batch = source_->Next();
    const Batch on_device = feeder_.ToDevice(batch);
    graphed_ =
        CaptureStep(*train_step_, on_device.images, on_device.labels, o_.data == "synthetic");
    Print(o_, "Captured the training step in a CUDA graph");
  }
  Synchronize(device_);
  if (data_parallel_) data_parallel_->Barrier();
}

void TrainingRun::TimeSteps() {
  const int64_t steps = o_.epochs * o_.steps_per_epoch;
  result_.step_seconds.reserve(static_cast<size_t>(steps));
  result_.step_wait_seconds.reserve(static_cast<size_t>(steps));
  StepClock clock(device_);
  const double start = NowSeconds();
  clock.Start();
  double window_start = start;
  int64_t window_images = 0;
  timed_ = true;
  for (int64_t epoch = 1; epoch <= o_.epochs && !result_.interrupted; ++epoch) {
    if (o_.live) o_.live->SetPhase(metrics::LivePhase::kTrain, static_cast<uint64_t>(epoch));
    for (int64_t s = 1; s <= o_.steps_per_epoch; ++s) {
      double waited = 0;
      const at::Tensor loss = Step(waited);
      clock.StepDone();
      result_.data_wait_seconds += waited;
      result_.step_wait_seconds.push_back(waited);
      if (o_.live) o_.live->AddSamples(static_cast<uint64_t>(o_.batch_size));
      // The host may queue two steps ahead of the device, no more: batches in flight
      // stay bounded and the data wait still shows a starving device.
      clock.Throttle(2);
      window_images += o_.batch_size;
      if (s % o_.log_interval == 0 || s == o_.steps_per_epoch) {
        const double value = Read(loss);
        const double now = NowSeconds();
        result_.losses.push_back(value);
        Print(o_, ProgressLine(epoch, o_.epochs, s, o_.steps_per_epoch, value,
                               window_images / std::max(now - window_start, 1e-9)));
        window_start = now;
        window_images = 0;
      }
      ++result_.steps_done;
      // Ctrl-C ends the training after this step, with the figures of the steps done.
      if (InterruptRequested()) {
        result_.interrupted = true;
        break;
      }
    }
  }
  result_.step_seconds = clock.Finish();
  if (o_.live) o_.live->SetPhase(metrics::LivePhase::kDone, static_cast<uint64_t>(o_.epochs));
  result_.elapsed_seconds = NowSeconds() - start;
  // The job took as long as its slowest process (whose peers, interrupted at other steps,
  // may not meet it in a collective).
  if (data_parallel_ && !result_.interrupted)
    result_.elapsed_seconds = data_parallel_->Max(result_.elapsed_seconds);
}

TrainResult TrainingRun::Finish() {
  TrainResult& r = result_;
  r.total_images = o_.batch_size * r.steps_done * launch_.world_size;
  r.images_per_second = r.total_images / std::max(r.elapsed_seconds, 1e-9);
  r.images_per_second_per_process = r.images_per_second / launch_.world_size;
  if (o_.scaling_baseline > 0)
    r.scaling_efficiency = r.images_per_second_per_process / o_.scaling_baseline;
  if (precision_ == Precision::kFp16) r.skipped_steps = scaler_->skipped_steps();
  if (image_loader_) {
    r.bad_images = image_loader_->bad_images();
    r.storage_counters = image_loader_->reader().StorageCounters();
  }
  if (op_log_) {
    source_.reset();  // its reader's last lines reach the log
    op_log_->Close();
    r.op_log_line = fmt::format("op-log: {} operations in {}", op_log_->Records(), op_log_->path());
    Print(o_, r.op_log_line);
  }
  if (!o_.save_path.empty() && launch_.rank == 0 && !r.interrupted) {
    SaveStateDict(*model_, o_.save_path);
    Print(o_, fmt::format("Saved state dict ({} tensors) to {}",
                          model_->named_parameters().size() + model_->named_buffers().size(),
                          o_.save_path));
  }
  return r;
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
  TrainingRun run(o, launch, precision, device);
  run.Start();
  run.BuildModel();
  run.OpenData();
  InstallInterruptHandler();
  try {
    run.WarmUp();
    run.TimeSteps();
  } catch (const c10::Error& e) {
    throw TrainingFailed(e, run.result(), run.options());
  }
  return run.Finish();
}

}  // namespace trainbench::train
