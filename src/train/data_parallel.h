// Data-parallel training over processes, launched the way PyTorch jobs are: torchrun's
// environment (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT) or mpirun's
// (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK; MASTER_ADDR/PORT passed with -x or defaulting to
// 127.0.0.1:29500). Each process trains on its share of every global batch; after backward
// the gradients are averaged over all processes with LibTorch's c10d (NCCL between GPUs where
// the build has it, Gloo otherwise), so every process applies the same update, as PyTorch's
// DistributedDataParallel does (BatchNorm statistics stay per process, as DDP without
// SyncBatchNorm; buffers are not re-broadcast).
// Not thread-safe: one DataParallel per process, used by the training thread.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <memory>
#include <string>
#include <vector>

namespace trainbench::train {

struct LaunchInfo {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  std::string launcher = "none";  // "torchrun" (RANK...), "mpirun" (OMPI_...) or "none"
};

// Reads the launcher's environment; a single process when none is set. Throws UsageError
// naming the variable when one is malformed.
LaunchInfo ReadLaunchEnvironment();

// Whether this build can train across processes (c10d with Gloo or NCCL).
bool DataParallelAvailable();

class DataParallel {
 public:
  // Joins the process group (rank 0 hosts the rendezvous store). Throws RuntimeError naming
  // the address when the group cannot form within `timeout_seconds`.
  DataParallel(const LaunchInfo& launch, const c10::Device& device, double timeout_seconds = 300);
  ~DataParallel();

  int rank() const { return launch_.rank; }
  int world_size() const { return launch_.world_size; }
  const std::string& backend() const { return backend_; }

  // Rank 0's values into every process's tensors (the initial weights).
  void Broadcast(const std::vector<at::Tensor>& tensors);
  // Replaces each parameter's gradient by its mean over the processes, in one flat buffer.
  void AverageGradients(const std::vector<at::Tensor>& parameters);
  // The largest of `value` over the processes (elapsed time of a step range).
  double Max(double value);
  void Barrier();

 private:
  struct Group;
  LaunchInfo launch_;
  c10::Device device_;
  std::string backend_;
  std::unique_ptr<Group> group_;
};

}  // namespace trainbench::train
