#include "app/train/train_job.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <thread>

#include "app/frame/job_checks.h"
#include "app/frame/job_frame.h"
#include "app/train/train_plugin.h"
#include "app/workload_load.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/host_name.h"
#include "common/live_display.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/secrets.h"
#include "common/status_ticker.h"
#include "common/strings.h"
#include "config/workload_yaml.h"
#include "image/image_folder.h"
#include "metrics/au.h"
#include "metrics/live_io.h"
#include "report/console/tables.h"
#include "report/latency_histogram_json.h"
#include "storage/storage_options.h"
#include "train/launch_environment.h"
#include "train/train_report.h"

namespace trainbench::app {
namespace {

bool IsS3Data(const std::string& data) { return StartsWith(ToLower(data), "s3://"); }

// A remote --data is read before the model is built: wrong keys, a missing bucket or object,
// or an empty prefix fail here, naming the endpoint, the bucket and what to check, before
// training starts or a results folder is made.
void ProbeRemoteData(const train::TrainOptions& o) {
  if (!IsRemoteData(o.data)) return;
  try {
    image::ProbeImageLocation(o.data, o.storage_options);
  } catch (const IoError& e) {
    if (!IsS3Data(o.data))
      throw RuntimeError(
          fmt::format("--data {}: cannot read it: {}", RedactUrlPasswords(o.data), e.what()));
    throw RuntimeError(fmt::format(
        "--data {}: cannot read it: {} (train takes the keys from AWS_ACCESS_KEY_ID and "
        "AWS_SECRET_ACCESS_KEY, ~/.aws (AWS_PROFILE), or --s3-option access_key_id=... "
        "--s3-option secret_access_key=...; the endpoint from AWS_ENDPOINT_URL or --s3-option "
        "endpoint_url=...)",
        o.data, e.what()));
  }
}

// The line of a training on rank 0 (null on other ranks: across processes rank 0 alone
// prints it).
// The live block under the progress lines on a terminal: where the training is, and its rate
// and data wait since the last redraw (the progress lines keep their scripts' shape for the
// tools that parse them; a log gets only those).
class TrainStatus {
 public:
  TrainStatus(const metrics::LiveCounters& live, int64_t epochs)
      : live_(live), epochs_(epochs), last_s_(NowSeconds()) {}
  std::string operator()() {
    const double now = NowSeconds();
    const uint64_t images = live_.Samples();
    const double waited = live_.WaitAt(now).total_s;
    const double span = std::max(now - last_s_, 1e-9);
    std::string block;
    if (live_.Phase() != metrics::LivePhase::kTrain) {
      block = "train: starting (model, data, warm-up)\n";
    } else {
      block = fmt::format("train: epoch {}/{}, {} images, {:.1f} images/s, data wait {:.1f}%\n",
                          live_.Epoch(), epochs_, images,
                          static_cast<double>(images - last_images_) / span,
                          100.0 * std::clamp((waited - last_waited_) / span, 0.0, 1.0));
    }
    last_s_ = now;
    last_images_ = images;
    last_waited_ = waited;
    return block;
  }

 private:
  const metrics::LiveCounters& live_;
  int64_t epochs_;
  double last_s_;
  uint64_t last_images_ = 0;
  double last_waited_ = 0;
};

nlohmann::ordered_json TrainLine(train::TrainFunction train_fn, train::TrainOptions o,
                                 bool progress) {
  metrics::LiveCounters own;
  if (!o.live) o.live = &own;
  // Rank 0 speaks for a launched job, as its progress lines do.
  const bool shown = progress && !o.quiet && train::ReadLaunchEnvironment().rank == 0;
  const bool terminal = LiveDisplay::ModeFor(STDERR_FILENO, shown) == LiveDisplay::Mode::kBlock;
  LiveDisplay display(STDERR_FILENO, terminal ? LiveDisplay::Mode::kBlock : LiveDisplay::Mode::kOff,
                      0, 0.5);
  if (terminal)
    o.print = [&display](const std::string& line) {
      display.Above([&line] {
        std::fputs((line + "\n").c_str(), stdout);
        std::fflush(stdout);
      });
    };
  train::TrainResult result;
  {
    std::optional<StatusTicker> ticker;
    if (terminal) ticker.emplace(display, TrainStatus(*o.live, o.epochs), 0.5);
    result = train_fn(o);
  }
  display.Clear();
  if (result.rank != 0) return nullptr;
  return nlohmann::ordered_json::parse(train::MetricsLine(o, result));
}

// --s3-option's pairs as results keep them: secrets replaced.
nlohmann::json RedactedOptions(const std::map<std::string, std::string>& options) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : options)
    out[key] = IsSecretName(key) ? std::string(kRedacted) : value;
  return out;
}

nlohmann::json TrainConfig(const train::TrainOptions& o) {
  return {{"model", o.model},
          {"data", o.data},
          {"batch_size", o.batch_size},
          {"epochs", o.epochs},
          {"steps_per_epoch", o.steps_per_epoch},
          {"warmup_steps", o.warmup_steps},
          {"lr", o.lr},
          {"momentum", o.momentum},
          {"weight_decay", o.weight_decay},
          {"precision", o.precision},
          {"channels_last", o.channels_last},
          {"device", o.device},
          {"image_size", o.image_size},
          {"workers", o.workers},
          {"io_depth", o.io_depth},
          {"s3_options", RedactedOptions(o.storage_options)},
          {"seed", o.seed}};
}

// A calibration whose mean is more than this over its p50 says so (one outlier doubled a mean
// of 10 steps on a loaded host).
constexpr double kCalibrationSpread = 1.15;
// The crop the ResNet workloads train at (MLPerf's ImageNet pipeline), and train's default.
constexpr int64_t kWorkloadImageSize = 224;

std::string Calibrate(train::TrainFunction train_fn, TrainJobOptions& job) {
  // Its storage_options names checked as every workload's are (quiet: the warnings of keys
  // a run would use do not concern a calibration).
  const config::WorkloadConfig workload = LoadCheckedWorkload(job.calibrate, {}, true);
  auto& o = job.train;
  const int64_t batch = static_cast<int64_t>(workload.reader.batch_size);
  // Refused before any step, as `sweep` refuses them.
  if (!workload.workflow.train)
    throw UsageError(fmt::format(
        "--calibrate {}: a checkpointing workload (workflow.train false) has no training step "
        "to time; calibrate a training workload (e.g. resnet50_h100)",
        workload.workload_name));
  if (batch < 2)
    throw UsageError(fmt::format(
        "--calibrate {}: reader.batch_size {}: batch norm needs a batch of 2 or more images in "
        "training; give reader.batch_size 2 or more in the workload",
        workload.workload_name, batch));
  o.batch_size = batch;
  o.epochs = 1;
  // A CPU times the largest batch that fits in memory and scales the step time to the
  // workload's batch (CPU step time grows with the batch about linearly).
  o.fit_batch_to_memory = true;
  if (!job.given.steps_per_epoch) o.steps_per_epoch = 20;
  if (workload.model.name.find("resnet") == std::string::npos)
    LogWarning(fmt::format("workload {} models '{}'; timing {} at its batch size instead",
                           workload.workload_name, workload.model.name, o.model));
  const bool with_data = o.data != "synthetic";
  if (with_data) ProbeRemoteData(o);
  const train::TrainResult result = train_fn(o);
  const double scale = static_cast<double>(batch) / static_cast<double>(result.batch_size);
  // With --data the loader reads and decodes beside the steps, as in a real training: each
  // step's compute is its time less its wait for the batch, so the figure carries what the
  // loader's CPU (decode, storage client) takes from the step on this host.
  std::vector<double> compute = result.step_seconds;
  for (size_t i = 0; with_data && i < compute.size() && i < result.step_wait_seconds.size(); ++i)
    compute[i] = std::max(0.0, compute[i] - result.step_wait_seconds[i]);
  // The figure is the mean: an emulated step sleeps computation_time, so the emulation's
  // images/s is batch / mean step, and a step's compute is skewed to the slow side (a p50
  // ran up to 3.4% under the mean on a shared CPU, which the emulation would read as speed).
  const double p50 = train::Percentile(compute, 50) * scale;
  const metrics::MeanStdev spread = metrics::MeanAndStdev(compute);
  const double mean = spread.mean * scale;
  const double stdev = spread.stdev * scale;
  std::string text;
  if (result.batch_size != batch)
    text +=
        fmt::format("Timed at batch {} (batch {} does not fit in memory) and scaled by {:.2f}\n",
                    result.batch_size, batch, scale);
  text += fmt::format(
      "Calibration: {} at batch {} on {}: compute time per step mean {:.4f} s (stdev {:.4f} s, "
      "p50 {:.4f} s, p99 {:.4f} s, {} steps; {:.1f} images/s)\n",
      workload.workload_name, batch, result.device_description, mean, stdev, p50,
      train::Percentile(compute, 99) * scale, compute.size(), static_cast<double>(batch) / mean);
  // A mean an outlier pulled far from the typical step: the host's load moved while timing.
  if (mean > kCalibrationSpread * p50)
    text += fmt::format(
        "Note: the steps' times spread widely (the mean {:.4f} s is {:.0f}% above the p50 {:.4f} "
        "s, "
        "stdev {:.4f} s): something else ran on this host while timing; calibrate again on a "
        "quiet host, or emulate the spread with the {{mean, stdev}} form below\n",
        mean, 100 * (mean / p50 - 1), p50, stdev);
  // The workload's model is what its emulation stands for; another model or crop is another
  // accelerator's step (a workload of another model was warned of above).
  if (workload.model.name.find("resnet") != std::string::npos &&
      (o.model != workload.model.name || o.image_size != kWorkloadImageSize))
    text += fmt::format(
        "Note: timed {} at {}x{} px; {} trains {} at {}x{}: this figure is {}'s step, not the "
        "workload's (drop --model and --image-size to time the workload's own)\n",
        o.model, o.image_size, o.image_size, workload.workload_name, workload.model.name,
        kWorkloadImageSize, kWorkloadImageSize, o.model);
  if (with_data)
    text += fmt::format(
        "Timed with the loader reading {} beside the steps ({} worker(s)): each step less its "
        "{:.1f}% wait for data\n",
        RedactUrlPasswords(o.data), o.workers,
        100 * result.data_wait_seconds /
            std::max(1e-9,
                     std::accumulate(result.step_seconds.begin(), result.step_seconds.end(), 0.0)));
  text += fmt::format(
      "Emulate this accelerator with:\n  trainbench run {} train.computation_time={:.6f}\n"
      "or, to draw each step's time as this host's steps varied:\n"
      "  trainbench run {} 'train.computation_time={{mean: {:.6f}, stdev: {:.6f}}}'\n",
      job.calibrate, mean, job.calibrate, mean, stdev);
  text += fmt::format("train.computation_time={:.6f}\n", mean);
  return text;
}

// Compute threads beyond this many per core are refused (--threads).
constexpr int kThreadsPerCore = 4;

// Flags that do not go together, refused before any work.
void CheckTrainJob(const TrainJobOptions& job) {
  const auto& o = job.train;
  if (!o.save_path.empty()) CheckWritableFile(o.save_path, "--save");
  if (!o.op_log.empty()) CheckWritableFile(o.op_log, "--op-log");
  if (job.staged.stage_to.empty()) {
    // s3:// streams through the storage layer, and so does one tar on a web server; a web
    // server has no listing to index a folder of images by, so that is staged.
    if (IsRemoteData(o.data) && !IsS3Data(o.data) && !image::ResolveImageLocation(o.data).is_tar)
      throw UsageError(fmt::format(
          "--data {}: a web server has no listing to index a folder by: add --stage-to DIR (a "
          "local folder for it), or name one .tar to read in place; an s3:// --data trains "
          "without staging",
          RedactUrlPasswords(o.data)));
    if (job.given.stage_streams) throw UsageError("--stage-streams goes with --stage-to DIR");
    if (!job.staged.s3_options.empty() && !IsS3Data(o.data))
      throw UsageError("--s3-option goes with --stage-to DIR or an s3:// --data");
    // An unknown option is named before any work (a malformed value, when the storage opens).
    storage::CheckStorageOptionNames(job.staged.s3_options, "--s3-option");
  } else if (!job.calibrate.empty()) {
    throw UsageError(
        "--calibrate times steps on synthetic data, or with the loader reading --data in place: "
        "drop --stage-to");
  }
  if (!job.calibrate.empty()) {
    if (job.given.output)
      throw UsageError("--calibrate prints its figure and keeps no results: drop --output");
    if (job.given.batch_size)
      throw UsageError(
          "--calibrate times the workload's own batch size (reader.batch_size); drop "
          "--batch-size");
  }
  CheckInterval(job.staged.interval_s);
  // Far more compute threads than cores: each step slows by the switching (1024 on 2 cores
  // took 85 s a step, and Ctrl-C waits for the step in flight); a few more may suit SMT.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (o.threads > kThreadsPerCore * cores)
    throw UsageError(fmt::format(
        "--threads {}: this host has {} cores; more than {} compute threads per core only slow "
        "each step (and Ctrl-C waits for the step in flight): give --threads {} or fewer, or "
        "leave it out (every core)",
        o.threads, cores, kThreadsPerCore, kThreadsPerCore * cores));
  if (o.threads > cores)
    LogWarning(fmt::format(
        "--threads {} on {} cores: the compute threads share cores, which slows each step; "
        "--threads {} (or none: every core) is this host's",
        o.threads, cores, cores));
  // Checked before training: a bad folder must not cost it.
  if (job.given.output && job.staged.stage_to.empty())
    CheckWritableFolder(job.staged.output, "--output");
}

// The first summary's figures: what the training is, known before its first step (a killed
// training's page names its model, batch, precision and device).
nlohmann::ordered_json StartFigures(const train::TrainOptions& o,
                                    const train::TrainResult& checked) {
  nlohmann::ordered_json f;
  f["radix_metrics"] = {
      {"batch_size", o.batch_size}, {"epochs", o.epochs}, {"steps_per_epoch", o.steps_per_epoch}};
  f["trainbench"] = {{"precision", o.precision},
                     {"device", checked.device},
                     {"device_name", checked.device_description},
                     {"model", o.model},
                     {"image_size", o.image_size}};
  return f;
}

// What the loader read (trainbench.io in the line and the summary; the S3 line on the console,
// as `run` prints it): bytes, reads and their latency, and the storage's own counters.
void AddIoFigures(const metrics::LiveIo& io, nlohmann::ordered_json& line, std::string& text) {
  const metrics::Histogram latency = io.Latency();
  auto& ours = line["trainbench"];
  // The warm-up's reads and the loader's read-ahead included: the time series has the rate.
  ours["io"] = {{"bytes_read", io.Bytes()},
                {"reads", io.Reads()},
                {"read_latency_ms", report::LatencyJson(latency, 1e-6)}};
  if (ours.contains("storage_counters"))
    text += report::S3CountersLine(ours["storage_counters"].get<std::map<std::string, double>>(),
                                   latency.Mean() * static_cast<double>(latency.Count()) / 1e9);
}

// Training on local or synthetic data; with --output its folder.
JobReport Train(train::TrainFunction train_fn, TrainJobOptions& job) {
  // Options and device first: a training refused before its first step leaves no folder.
  train::TrainOptions check = job.train;
  check.check_only = true;
  const train::TrainResult checked = train_fn(check);
  ProbeRemoteData(job.train);
  // Rank 0 of a launched job keeps the results, as it reports them.
  const bool keep_results = job.given.output && train::ReadLaunchEnvironment().rank == 0;
  metrics::LiveCounters live;
  if (keep_results) job.train.live = &live;
  metrics::LiveIo io;  // the loader's reads, for the time series and the summary
  job.train.live_io = &io;
  // The folder and its first summary before the first step: a killed training leaves them,
  // with the time series' rows so far.
  std::optional<FolderResults> folder;
  if (keep_results) folder.emplace(job.staged.output, "");
  JobFrame frame(
      folder ? &*folder : nullptr,
      report::NewEnvelope("train", job.train.model, {LocalHostName()}, TrainConfig(job.train)),
      job.staged.interval_s);
  frame.Begin("train", StartFigures(job.train, checked));
  auto sampling = frame.Sample(nullptr, &live,
                               [&io](metrics::IntervalProbe& p) {
                                 p.bytes = io.Bytes();
                                 p.reads = io.Reads();
                                 p.latency_counts.assign(p.latency_counts.size(), 0);
                                 io.AddLatencyCounts(p.latency_counts);
                               },
                               {});
  nlohmann::ordered_json line;
  std::string shown_text;
  try {
    line = TrainLine(train_fn, job.train, job.progress);
  } catch (const std::exception& e) {
    frame.Stop(e.what(), {}, sampling->Finish());
    throw;
  }
  job.train.live = nullptr;
  job.train.live_io = nullptr;
  const TimeseriesResult timeseries = sampling->Finish();
  if (!line.is_null() && job.train.data != "synthetic") AddIoFigures(io, line, shown_text);
  JobReport shown;
  shown.reports = true;
  shown.text = shown_text;
  // Ctrl-C during the timed steps: the figures of the steps done, the job incomplete (130).
  JobEnding ending;  // a training that fails throws
  ending.complete = !(!line.is_null() && line["trainbench"].value("interrupted", false));
  if (!ending.complete) {
    ending.stop_reason = fmt::format(
        "interrupted (Ctrl-C) after {} of {} timed steps: the figures are of those steps",
        line["trainbench"].value("steps", int64_t{0}),
        job.train.epochs * job.train.steps_per_epoch);
    shown.exit_code = static_cast<int>(ExitCode::kInterrupted);
    shown.error = ending.stop_reason;
  }
  if (line.is_null()) return shown;  // another process of the job reports it
  shown.results = frame.Finish(ending, line, timeseries);
  shown.line = FinalLine(line, frame.envelope(), shown.results.folder);
  return shown;
}

}  // namespace

TrainJobOutcome TrainJob(TrainJobOptions job) {
  CheckTrainJob(job);
  TrainJobOutcome out;
  try {
    if (!job.staged.stage_to.empty()) {
      // Loaded before the stage: a build without LibTorch must not fetch a dataset to say so.
      train::TrainFunction train_fn = nullptr;
      // Checked before the stage too: a host without a GPU must not fetch a dataset first.
      auto staged = StagedTrainJob(
          job.staged, job.train,
          [&] {
            train_fn = LoadTrainPlugin();
            train::TrainOptions check = job.train;
            check.check_only = true;
            train_fn(check);
          },
          [&] { return TrainLine(train_fn, job.train, job.progress); });
      out.failure = staged.failure;
      static_cast<JobReport&>(out) = std::move(staged);
      if (out.failure) std::rethrow_exception(out.failure);
      return out;
    }
    const train::TrainFunction train_fn = LoadTrainPlugin();
    job.train.storage_options = job.staged.s3_options;
    if (!job.calibrate.empty()) {
      out.reports = true;
      out.text = Calibrate(train_fn, job);
    } else {
      static_cast<JobReport&>(out) = Train(train_fn, job);
    }
  } catch (const train::CudaUnavailableError&) {
    // trainbench's own words first (a user reads them), then on stdout the exact line PyTorch
    // training scripts print, which harnesses look for.
    LogError(
        "no CUDA device here: run `trainbench train` on a GPU host, or add --allow-cpu to train "
        "on this host's CPU");
    out.reports = true;
    out.text = "[ERROR] CUDA not available and --allow-cpu not specified\n";
    out.exit_code = static_cast<int>(ExitCode::kRuntime);
    out.failure = nullptr;
  } catch (...) {
    if (!out.failure) throw;  // nothing measured to show first
  }
  return out;
}

}  // namespace trainbench::app
