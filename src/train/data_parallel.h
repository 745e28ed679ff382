// Data-parallel training over processes, launched the way PyTorch jobs are: torchrun's
// environment (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT) or mpirun's
// (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK; MASTER_ADDR/PORT passed with -x or defaulting to
// 127.0.0.1:29500). Each process trains on its share of every global batch; the gradients
// are averaged over all processes with LibTorch's c10d (NCCL between GPUs where the build has
// it, Gloo otherwise, or the backend asked for), so every process applies the same update, as
// PyTorch's DistributedDataParallel does (BatchNorm statistics stay per process, as DDP
// without SyncBatchNorm; buffers are not re-broadcast).
// Gradients live in persistent buckets (DDP's gradient_as_bucket_view): each parameter's
// gradient is a view into a flat bucket of about 25 MiB, so averaging copies nothing, and
// where LibTorch has post-accumulate-grad hooks (2.1 and later) a bucket's all-reduce starts
// as soon as backward has filled it, overlapping the rest of backward.
// Not thread-safe: one DataParallel per process, used by the training thread.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "train/launch_environment.h"

namespace trainbench::train {

// Whether this build can train across processes (c10d with Gloo or NCCL).
bool DataParallelAvailable();

class DataParallel {
 public:
  static constexpr int64_t kBucketBytes = 25 << 20;  // DDP's bucket_cap_mb

  // Joins the process group (rank 0 hosts the rendezvous store). `backend`: "auto" (NCCL for
  // a CUDA device where built with it, else Gloo), "nccl" or "gloo" (Gloo also reduces CUDA
  // tensors, through the host). Throws UsageError for a backend this build or device lacks,
  // RuntimeError naming the address when the group cannot form within `timeout_seconds`.
  DataParallel(const LaunchInfo& launch, const c10::Device& device, double timeout_seconds = 300,
               const std::string& backend = "auto");
  ~DataParallel();

  int rank() const { return launch_.rank; }
  int world_size() const { return launch_.world_size; }
  const std::string& backend() const { return backend_; }
  bool bucketed() const { return !buckets_.empty(); }
  size_t buckets() const { return buckets_.size(); }
  // Whether buckets' all-reduces start during backward (post-accumulate-grad hooks).
  bool overlapped() const { return overlapped_; }

  // Rank 0's values into every process's tensors (the initial weights).
  void Broadcast(const std::vector<at::Tensor>& tensors);
  // Makes every parameter's gradient a view into persistent buckets of about `bucket_bytes`,
  // filled in reverse order of `parameters` (the order backward produces them). Call once,
  // after the parameters have their final device and memory format; then zero gradients with
  // ZeroGradients (an optimizer that resets them to undefined would drop the views).
  void AttachGradientBuckets(const std::vector<at::Tensor>& parameters,
                             int64_t bucket_bytes = kBucketBytes);
  // Zeroes the buckets before a backward pass accumulates into them.
  void ZeroGradients();
  // Replaces each parameter's gradient by its mean over the processes: with buckets, waits
  // for the all-reduces backward started and starts the rest; without, in one flat buffer
  // gathered and scattered back each step.
  void AverageGradients(const std::vector<at::Tensor>& parameters);
  // The largest of `value` over the processes (elapsed time of a step range).
  double Max(double value);
  void Barrier();

 private:
  struct Group;
  struct Bucket {
    at::Tensor flat;
    int parameters = 0;
    std::atomic<int> pending{0};  // gradients not yet accumulated in this backward pass
    std::function<void()> wait;   // set once the bucket's all-reduce has started
  };
  void StartBucket(Bucket& bucket);

  LaunchInfo launch_;
  c10::Device device_;
  std::string backend_;
  std::unique_ptr<Group> group_;
  std::vector<std::unique_ptr<Bucket>> buckets_;
  bool overlapped_ = false;
};

}  // namespace trainbench::train
