#include "train/data_parallel.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <functional>

#include "common/error.h"

#if __has_include( \
    <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>) && __has_include(<gloo/algorithm.h>)
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#define TRAINBENCH_HAVE_GLOO 1
#endif
#if defined(TRAINBENCH_TORCH_CUDA) && \
    __has_include(<torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>) && __has_include(<nccl.h>)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#define TRAINBENCH_HAVE_NCCL 1
#endif

namespace trainbench::train {

namespace {

// The integer in environment variable `name`, or `fallback` when unset.
int EnvInt(const char* name, int fallback, int min) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < min || value > 1 << 20)
    throw UsageError(
        fmt::format("environment {}={}: expected an integer of at least {}", name, text, min));
  return static_cast<int>(value);
}

}  // namespace

LaunchInfo ReadLaunchEnvironment() {
  LaunchInfo info;
  if (std::getenv("WORLD_SIZE")) {
    info.launcher = "torchrun";
    info.world_size = EnvInt("WORLD_SIZE", 1, 1);
    info.rank = EnvInt("RANK", 0, 0);
    info.local_rank = EnvInt("LOCAL_RANK", info.rank, 0);
  } else if (std::getenv("OMPI_COMM_WORLD_SIZE")) {
    info.launcher = "mpirun";
    info.world_size = EnvInt("OMPI_COMM_WORLD_SIZE", 1, 1);
    info.rank = EnvInt("OMPI_COMM_WORLD_RANK", 0, 0);
    info.local_rank = EnvInt("OMPI_COMM_WORLD_LOCAL_RANK", info.rank, 0);
  }
  if (info.rank >= info.world_size)
    throw UsageError(fmt::format("rank {} is not below the world size {} ({} environment)",
                                 info.rank, info.world_size, info.launcher));
  if (const char* addr = std::getenv("MASTER_ADDR"); addr && *addr) info.master_addr = addr;
  info.master_port = EnvInt("MASTER_PORT", info.master_port, 1);
  if (info.master_port > 65535)
    throw UsageError(fmt::format("environment MASTER_PORT={}: not a port", info.master_port));
  return info;
}

struct DataParallel::Group {
  std::function<void(std::vector<at::Tensor>&)> allreduce_sum, allreduce_max, broadcast;
  std::function<void()> barrier;
#if defined(TRAINBENCH_HAVE_GLOO) || defined(TRAINBENCH_HAVE_NCCL)
  c10::intrusive_ptr<c10d::Store> store;
#endif
};

namespace {

#if defined(TRAINBENCH_HAVE_GLOO) || defined(TRAINBENCH_HAVE_NCCL)
template <typename ProcessGroup, typename Group>
void Wrap(c10::intrusive_ptr<ProcessGroup> pg, Group& group) {
  group.allreduce_sum = [pg](std::vector<at::Tensor>& t) {
    c10d::AllreduceOptions o;
    o.reduceOp = c10d::ReduceOp::SUM;
    pg->allreduce(t, o)->wait();
  };
  group.allreduce_max = [pg](std::vector<at::Tensor>& t) {
    c10d::AllreduceOptions o;
    o.reduceOp = c10d::ReduceOp::MAX;
    pg->allreduce(t, o)->wait();
  };
  group.broadcast = [pg](std::vector<at::Tensor>& t) { pg->broadcast(t)->wait(); };
  group.barrier = [pg] { pg->barrier()->wait(); };
}
#endif

}  // namespace

bool DataParallelAvailable() {
#if defined(TRAINBENCH_HAVE_GLOO) || defined(TRAINBENCH_HAVE_NCCL)
  return true;
#else
  return false;
#endif
}

DataParallel::DataParallel(const LaunchInfo& launch, const c10::Device& device,
                           double timeout_seconds)
    : launch_(launch), device_(device), group_(std::make_unique<Group>()) {
#if defined(TRAINBENCH_HAVE_GLOO) || defined(TRAINBENCH_HAVE_NCCL)
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout_seconds * 1e3));
  try {
    c10d::TCPStoreOptions options;
    options.port = static_cast<uint16_t>(launch.master_port);
    options.isServer = launch.rank == 0;
    options.numWorkers = static_cast<size_t>(launch.world_size);
    options.timeout = timeout;
    group_->store = c10::make_intrusive<c10d::TCPStore>(launch.master_addr, options);
#if defined(TRAINBENCH_HAVE_NCCL)
    if (device.is_cuda()) {
      backend_ = "nccl";
      auto o = c10d::ProcessGroupNCCL::Options::create();
      Wrap(c10::make_intrusive<c10d::ProcessGroupNCCL>(group_->store, launch.rank,
                                                       launch.world_size, o),
           *group_);
    }
#endif
#if defined(TRAINBENCH_HAVE_GLOO)
    if (backend_.empty()) {
      backend_ = "gloo";
      auto o = c10d::ProcessGroupGloo::Options::create(timeout);
      // Loopback launches bind Gloo to loopback; elsewhere to this host's name.
      const bool loopback = launch.master_addr == "127.0.0.1" || launch.master_addr == "localhost";
      o->devices.push_back(loopback ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                    : c10d::ProcessGroupGloo::createDefaultDevice());
      Wrap(c10::make_intrusive<c10d::ProcessGroupGloo>(group_->store, launch.rank,
                                                       launch.world_size, o),
           *group_);
    }
#endif
  } catch (const std::exception& e) {
    throw RuntimeError(
        fmt::format("rank {} of {} could not join the process group at {}:{} ({}): {}", launch.rank,
                    launch.world_size, launch.master_addr, launch.master_port, launch.launcher,
                    std::string(e.what()).substr(0, std::string(e.what()).find('\n'))));
  }
  if (backend_.empty())
    throw UsageError(fmt::format("no c10d backend for {} in this build", device.str()));
#else
  (void)device;
  (void)timeout_seconds;
  throw UsageError(
      "this trainbench was built without LibTorch's c10d (Gloo/NCCL): training across "
      "processes needs it");
#endif
}

DataParallel::~DataParallel() = default;

void DataParallel::Broadcast(const std::vector<at::Tensor>& tensors) {
  c10::NoGradGuard no_grad;
  for (const auto& t : tensors) {
    std::vector<at::Tensor> one{t.detach()};
    group_->broadcast(one);
  }
}

void DataParallel::AverageGradients(const std::vector<at::Tensor>& parameters) {
  c10::NoGradGuard no_grad;
  std::vector<at::Tensor> grads;
  for (const auto& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return;
  std::vector<at::Tensor> flat;
  flat.reserve(grads.size());
  for (const auto& g : grads) flat.push_back(g.reshape({-1}));
  std::vector<at::Tensor> buffer{at::cat(flat)};
  group_->allreduce_sum(buffer);
  buffer[0].div_(launch_.world_size);
  int64_t offset = 0;
  for (auto& g : grads) {
    const int64_t n = g.numel();
    g.copy_(buffer[0].slice(0, offset, offset + n).view_as(g));
    offset += n;
  }
}

double DataParallel::Max(double value) {
  // On the device: NCCL reduces only GPU tensors.
  std::vector<at::Tensor> t{
      at::full({1}, value, at::TensorOptions().dtype(at::kDouble).device(device_))};
  group_->allreduce_max(t);
  return t[0].item<double>();
}

void DataParallel::Barrier() { group_->barrier(); }

}  // namespace trainbench::train
