#include "train/data_parallel.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>
#include <fmt/format.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

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

struct DataParallel::Group {
  std::function<void(std::vector<at::Tensor>&)> allreduce_sum, allreduce_max, broadcast;
  // Starts a sum over the processes of the tensors (kept alive by the caller until the
  // returned wait is called).
  std::function<std::function<void()>(std::vector<at::Tensor>&)> start_allreduce_sum;
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
  group.start_allreduce_sum = [pg](std::vector<at::Tensor>& t) -> std::function<void()> {
    c10d::AllreduceOptions o;
    o.reduceOp = c10d::ReduceOp::SUM;
    auto work = pg->allreduce(t, o);
    return [work] { work->wait(); };
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
                           double timeout_seconds, const std::string& backend)
    : launch_(launch), device_(device), group_(std::make_unique<Group>()) {
  if (backend != "auto" && backend != "nccl" && backend != "gloo")
    throw UsageError(fmt::format("--dist-backend {}: choose auto, nccl or gloo", backend));
  if (backend == "nccl" && !device.is_cuda())
    throw UsageError(
        fmt::format("--dist-backend nccl reduces GPU tensors only; {} needs gloo", device.str()));
#if !defined(TRAINBENCH_HAVE_NCCL)
  if (backend == "nccl")
    throw UsageError(
        "--dist-backend nccl: this build has no NCCL (its LibTorch or nccl.h lacks it)");
#endif
#if !defined(TRAINBENCH_HAVE_GLOO)
  if (backend == "gloo") throw UsageError("--dist-backend gloo: this build has no Gloo");
#endif
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
    if (device.is_cuda() && backend != "gloo") {
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

namespace {

// Runs on autograd's thread once a parameter's gradient for this pass is accumulated.
class BucketReadyHook : public torch::autograd::PostAccumulateGradHook {
 public:
  explicit BucketReadyHook(std::function<void()> ready) : ready_(std::move(ready)) {}
  void operator()(const torch::autograd::Variable& /*tensor*/) override { ready_(); }

 private:
  std::function<void()> ready_;
};

// A view of `flat` from element `offset` with the parameter's shape and strides (channels-last
// weights keep their layout, which the fused optimizer expects of their gradients).
at::Tensor GradientView(const at::Tensor& flat, int64_t offset, const at::Tensor& parameter) {
  if (parameter.is_non_overlapping_and_dense())
    return flat.as_strided(parameter.sizes(), parameter.strides(), flat.storage_offset() + offset);
  return flat.narrow(0, offset, parameter.numel()).view(parameter.sizes());
}

}  // namespace

void DataParallel::AttachGradientBuckets(const std::vector<at::Tensor>& parameters,
                                         int64_t bucket_bytes) {
  c10::NoGradGuard no_grad;
  if (!buckets_.empty()) throw RuntimeError("gradient buckets are attached once");
  // Backward produces gradients roughly in reverse order of registration: the last layers'
  // bucket fills first, so its all-reduce starts while the first layers still compute.
  std::vector<std::vector<at::Tensor>> groups;
  int64_t bytes = 0;
  for (auto it = parameters.rbegin(); it != parameters.rend(); ++it) {
    const at::Tensor& p = *it;
    if (!p.requires_grad()) continue;
    const int64_t size = p.numel() * static_cast<int64_t>(p.element_size());
    const bool same_kind =
        !groups.empty() && groups.back().front().options().type_equal(p.options());
    if (groups.empty() || !same_kind || bytes + size > bucket_bytes) {
      groups.emplace_back();
      bytes = 0;
    }
    groups.back().push_back(p);
    bytes += size;
  }
  overlapped_ = true;
  for (auto& members : groups) {
    int64_t numel = 0;
    for (const auto& p : members) numel += p.numel();
    auto bucket = std::make_unique<Bucket>();
    bucket->flat = at::zeros({numel}, members.front().options().requires_grad(false));
    bucket->parameters = static_cast<int>(members.size());
    int64_t offset = 0;
    for (auto p : members) {
      p.mutable_grad() = GradientView(bucket->flat, offset, p);
      offset += p.numel();
      Bucket* b = bucket.get();
      torch::autograd::impl::set_post_acc_grad_hooks(p,
                                                     std::make_unique<BucketReadyHook>([this, b] {
                                                       if (b->pending.fetch_sub(1) == 1)
                                                         StartBucket(*b);
                                                     }));
    }
    buckets_.push_back(std::move(bucket));
  }
  ZeroGradients();
}

void DataParallel::ZeroGradients() {
  for (auto& b : buckets_) {
    b->flat.zero_();
    b->wait = nullptr;
    b->pending.store(b->parameters);
  }
}

void DataParallel::StartBucket(Bucket& bucket) {
  std::vector<at::Tensor> one{bucket.flat};
  bucket.wait = group_->start_allreduce_sum(one);
}

void DataParallel::AverageGradients(const std::vector<at::Tensor>& parameters) {
  c10::NoGradGuard no_grad;
  if (!buckets_.empty()) {
    // Buckets whose gradients backward did not all produce (or every bucket, without hooks)
    // start now.
    for (auto& b : buckets_)
      if (!b->wait) StartBucket(*b);
    for (auto& b : buckets_) {
      b->wait();
      b->wait = nullptr;
      b->flat.div_(launch_.world_size);
    }
    return;
  }
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
