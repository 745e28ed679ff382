#include "train/device_pipeline.h"

#include <ATen/ATen.h>

#include "common/clock.h"
#include "train/device.h"

#if defined(TRAINBENCH_TORCH_CUDA)
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace trainbench::train {

#if defined(TRAINBENCH_TORCH_CUDA)
struct DeviceFeeder::Streams {
  explicit Streams(c10::DeviceIndex index) : copy(c10::cuda::getStreamFromPool(false, index)) {}
  c10::cuda::CUDAStream copy;
};

struct StepClock::Events {
  at::cuda::CUDAEvent start{cudaEventDefault};
  std::vector<at::cuda::CUDAEvent> done;
};
#else
struct DeviceFeeder::Streams {};
struct StepClock::Events {};
#endif

DeviceFeeder::DeviceFeeder(const c10::Device& device) : device_(device) {
#if defined(TRAINBENCH_TORCH_CUDA)
  if (device.is_cuda())
    streams_ = std::make_unique<Streams>(device.has_index() ? device.index() : 0);
#endif
}

DeviceFeeder::~DeviceFeeder() = default;

Batch DeviceFeeder::ToDevice(const Batch& batch) {
  if (batch.images.device() == device_ || !streams_) {
    return {batch.images.to(device_, /*non_blocking=*/true),
            batch.labels.to(device_, /*non_blocking=*/true)};
  }
#if defined(TRAINBENCH_TORCH_CUDA)
  const c10::cuda::CUDAStream compute = c10::cuda::getCurrentCUDAStream(device_.index());
  Batch out;
  {
    c10::cuda::CUDAStreamGuard guard(streams_->copy);
    out.images = batch.images.to(device_, /*non_blocking=*/true);
    out.labels = batch.labels.to(device_, /*non_blocking=*/true);
  }
  at::cuda::CUDAEvent copied;
  copied.record(streams_->copy);
  copied.block(compute);
  // Allocated on the copy stream, used on the compute stream: the allocator must not hand
  // the memory out again before the compute stream is done with it.
  c10::cuda::CUDACachingAllocator::recordStream(out.images.storage().data_ptr(), compute);
  c10::cuda::CUDACachingAllocator::recordStream(out.labels.storage().data_ptr(), compute);
  return out;
#else
  return batch;
#endif
}

StepClock::StepClock(const c10::Device& device) : device_(device) {
#if defined(TRAINBENCH_TORCH_CUDA)
  if (device.is_cuda()) events_ = std::make_unique<Events>();
#endif
}

StepClock::~StepClock() = default;

void StepClock::Start() {
#if defined(TRAINBENCH_TORCH_CUDA)
  if (events_) {
    events_->start.record();
    return;
  }
#endif
  host_times_.assign(1, NowSeconds());
}

void StepClock::StepDone() {
#if defined(TRAINBENCH_TORCH_CUDA)
  if (events_) {
    events_->done.emplace_back(cudaEventDefault);
    events_->done.back().record();
    return;
  }
#endif
  Synchronize(device_);
  host_times_.push_back(NowSeconds());
}

void StepClock::Throttle(int64_t in_flight) {
#if defined(TRAINBENCH_TORCH_CUDA)
  if (events_) {
    const int64_t n = static_cast<int64_t>(events_->done.size());
    if (n > in_flight) events_->done[static_cast<size_t>(n - in_flight - 1)].synchronize();
  }
#else
  (void)in_flight;
#endif
}

std::vector<double> StepClock::Finish() {
  std::vector<double> seconds;
#if defined(TRAINBENCH_TORCH_CUDA)
  if (events_) {
    Synchronize(device_);
    const at::cuda::CUDAEvent* previous = &events_->start;
    for (const auto& e : events_->done) {
      seconds.push_back(previous->elapsed_time(e) / 1e3);
      previous = &e;
    }
    return seconds;
  }
#endif
  for (size_t i = 1; i < host_times_.size(); ++i)
    seconds.push_back(host_times_[i] - host_times_[i - 1]);
  return seconds;
}

}  // namespace trainbench::train
