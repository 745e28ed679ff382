// How batches reach the device and how steps are timed there without waiting on each one.
// DeviceFeeder copies a host batch to the device on a side stream, so the copy of the next
// batch overlaps the current step's compute; the compute stream waits for the copy on the
// device, not the host. StepClock records an event after each step and turns them into
// per-step device times when asked, and bounds how far the host may queue ahead. On the CPU
// both are trivial: the batch is used where it is, and a step's time is host time.
// Compiled with CUDA calls when the LibTorch found has CUDA.
// Not thread-safe: used by the training thread.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "train/batch_source.h"

namespace trainbench::train {

class DeviceFeeder {
 public:
  explicit DeviceFeeder(const c10::Device& device);
  ~DeviceFeeder();
  // The batch on the device; work queued after this call on the current stream sees it.
  Batch ToDevice(const Batch& batch);

 private:
  struct Streams;
  c10::Device device_;
  std::unique_ptr<Streams> streams_;
};

class StepClock {
 public:
  explicit StepClock(const c10::Device& device);
  ~StepClock();
  void Start();     // before the first timed step is queued
  void StepDone();  // after each step is queued
  // Blocks the host until at most `in_flight` steps are queued but unfinished.
  void Throttle(int64_t in_flight);
  // Waits for every step, then returns each step's time in seconds (from the end of the
  // step before, or from Start for the first).
  std::vector<double> Finish();

 private:
  struct Events;
  c10::Device device_;
  std::unique_ptr<Events> events_;
  std::vector<double> host_times_;  // CPU: host time at Start and after each step
};

}  // namespace trainbench::train
