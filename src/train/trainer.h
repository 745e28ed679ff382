// `trainbench train` below the CLI: real training of a torchvision-style ResNet with LibTorch,
// on synthetic batches made once on the device or on decoded JPEGs, timing every step.
// This header has no LibTorch includes: the binary includes it and reaches Train() through
// the plugin libtrainbench_train.so, built only when LibTorch is found.
// Thread-safety: Train() owns the process's LibTorch settings while it runs; call it from
// one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "metrics/live_counters.h"
#include "metrics/live_io.h"

namespace trainbench::train {

struct TrainOptions {
  std::string model = "resnet50";
  double lr = 0.1;
  double momentum = 0.9;
  double weight_decay = 1e-4;
  int64_t batch_size = 128;
  int64_t epochs = 1;
  int64_t steps_per_epoch = 200;
  int64_t warmup_steps = 5;  // run before timing starts; not counted in the metrics
  std::string precision = "fp32";
  bool channels_last = false;
  bool zero_init_residual = false;
  std::string device = "cuda";  // cuda, cuda:N or cpu
  bool allow_cpu = false;       // fall back to the CPU when CUDA is not available
  int threads = 0;              // CPU intra-op threads; 0: every core
  std::string data = "synthetic";
  // An s3:// --data's storage_options (--s3-option KEY=VALUE: endpoint_url, keys, ...); the
  // environment and ~/.aws fill the rest, as for `run`.
  std::map<std::string, std::string> storage_options;
  int workers = 0;   // decoding threads for --data PATH; 0: min(8, cores)
  int io_depth = 0;  // image reads in flight per worker; 0: 16 remote, 1 on a file system
  int image_size = 224;
  int64_t num_classes = 1000;
  uint64_t seed = 123;
  std::string save_path;              // state dict (torchvision names) written after training
  int64_t log_interval = 10;          // also how often the loss is read back from a GPU
  bool cuda_graphs = true;            // capture the step in a CUDA graph after warm-up (CUDA only)
  bool fused_bn = true;               // fused BatchNorm+ReLU(+add) kernels (channels-last)
  bool fit_batch_to_memory = false;   // CPU: shrink a batch that would not fit (--calibrate)
  double dist_timeout_seconds = 300;  // to form the process group and for each collective
  std::string dist_backend = "auto";  // auto (NCCL on CUDA where built), nccl or gloo
  bool grad_buckets = true;           // persistent gradient buckets (else flatten per step)
  double scaling_baseline = 0;        // images/s of one process alone, for scaling efficiency
  std::string on_bad_image = "skip";  // an image that does not decode: skip or fail
  bool quiet = false;                 // no start-up or progress lines
  // Validate and choose the device, then return an empty result: a staged job asks before it
  // fetches a dataset that a host without a GPU could not train on.
  bool check_only = false;
  // The host's free memory a CPU batch is fitted to; 0: measured (MemAvailable). Set by the
  // hidden --available-bytes, so the tests reach the fit and its refusal on a host with
  // memory to spare.
  uint64_t available_bytes = 0;
  // --op-log FILE: every image read, a GET in sai3-bench's op-log columns (one file per
  // process when launched: FILE.rankNNNN.tsv.zst); "" for none.
  std::string op_log;
  // When set, the timed steps' images, data waits and epoch as they happen, for the time
  // series the CLI samples (metrics/live_counters.h: lock-free, read on another thread).
  metrics::LiveCounters* live = nullptr;
  // Set: the loader's reads (bytes, count, latency) are counted there as they complete, for
  // the job's time series and summary.
  metrics::LiveIo* live_io = nullptr;
  // Where start-up and progress lines go, one at a time (no '\n'): stdout when unset. The
  // CLI prints them above its live status block on a terminal.
  std::function<void(const std::string& line)> print;
};

struct TrainResult {
  std::string op_log_line;         // "op-log: N operations in FILE" ("" without --op-log)
  std::string device;              // "cuda" or "cpu"
  std::string device_description;  // GPU name and memory, or CPU model and threads
  std::string data;                // "synthetic" or the dataset location
  int64_t parameters = 0;
  int64_t total_images = 0;  // batch x steps x epochs x processes (warm-up excluded)
  double elapsed_seconds = 0;
  double images_per_second = 0;           // of all processes together
  std::vector<double> step_seconds;       // every timed step
  double data_wait_seconds = 0;           // of those, blocked waiting for the next batch
  std::vector<double> step_wait_seconds;  // each timed step's share of that, in step order
  std::vector<double> losses;             // read every loss_read_interval timed steps
  int64_t loss_read_interval = 1;
  bool cuda_graphs = false;       // the timed steps replayed a CUDA graph
  bool fused_batch_norm = false;  // the model ran the fused BatchNorm+ReLU kernels
  // bf16 on a CPU without AVX-512: its convolutions ran oneDNN's fp32 kernels on bf16 values
  // (train/cpu/widened_conv.h).
  bool widened_bf16_convolutions = false;
  int64_t batch_size = 0;  // per process, as trained (smaller than asked if it was fitted)
  int rank = 0;            // across processes (RANK/WORLD_SIZE); only rank 0 reports
  int world_size = 1;
  std::string dist_backend;   // the c10d backend of a launched job; empty for none
  std::string gradient_sync;  // "buckets N" (+ ", overlapped"), "flatten", or empty
  double images_per_second_per_process = 0;
  double scaling_efficiency = 0;  // per-process images/s over --scaling-baseline; 0: not given
  int64_t bad_images = 0;         // images skipped because they did not decode
  int64_t skipped_steps = 0;      // fp16 steps skipped for inf/NaN gradients
  int64_t steps_done = 0;         // timed steps run: all of them unless interrupted
  bool interrupted = false;       // Ctrl-C during the timed steps: the figures are of steps_done
  std::map<std::string, double> storage_counters;  // the loader's storage's (S3: requests, ...)
};

// No GPU and no --allow-cpu: the CLI prints the exact line PyTorch scripts print.
class CudaUnavailableError : public RuntimeError {
 public:
  CudaUnavailableError() : RuntimeError("CUDA not available and --allow-cpu not specified") {}
};

// Runs warm-up then epochs x steps_per_epoch timed steps, printing start-up and progress lines
// on stdout unless quiet. Throws UsageError for bad options, CudaUnavailableError, and
// RuntimeError (a CUDA out-of-memory names the batch size to lower).
TrainResult Train(const TrainOptions& options);

// What the plugin's exported TrainbenchTrainEntry() returns.
using TrainFunction = TrainResult (*)(const TrainOptions& options);

}  // namespace trainbench::train
