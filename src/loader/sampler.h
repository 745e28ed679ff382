// The sampler: which samples each accelerator reads in an epoch, and in which order, as
// the frameworks' samplers do it. Files are ordered (file_shuffle), then the epoch's
// samples are split among all accelerators without overlap, each accelerator getting
// steps x batch of them (drop-last: every accelerator runs the same number of steps, so
// no division can deadlock a barrier), then each accelerator's samples are shuffled
// through a shuffle buffer (sample_shuffle, shuffle_size) as tf.data does.
// file_access multi: accelerator k takes the k-th contiguous slice of the file-ordered
// samples (mostly its own files). shared: every file is split into one disjoint range
// per accelerator, so all accelerators read every file.
// Pure and deterministic given the options and epoch; thread-compatible.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "config/workload.h"

namespace trainbench::loader {

struct SampleRef {
  uint32_t file = 0;    // index into the split's files
  uint32_t sample = 0;  // index within the file
  bool operator==(const SampleRef&) const = default;
};

struct SamplerOptions {
  uint64_t accelerators = 1;  // over all ranks
  uint64_t batch_size = 1;
  int64_t max_steps = -1;  // train.total_training_steps: caps the steps per epoch
  config::Shuffle file_shuffle = config::Shuffle::kOff;
  config::Shuffle sample_shuffle = config::Shuffle::kOff;
  uint64_t shuffle_size = 1024;
  config::FileAccess file_access = config::FileAccess::kMulti;
  uint64_t seed = 123;
  bool seed_change_epoch = true;
  uint64_t random_seed = 0;  // for Shuffle::kRandom: drawn once per run from the clock
};

// floor(samples / (batch x accelerators)), capped by max_steps.
uint64_t StepsPerEpoch(uint64_t total_samples, const SamplerOptions& options);

// Samples of accelerators [first, first + count) for `epoch` (1-based); each list holds
// exactly StepsPerEpoch x batch_size samples, batch after batch.
std::vector<std::vector<SampleRef>> PlanEpoch(std::span<const uint32_t> samples_per_file,
                                              const SamplerOptions& options, uint64_t epoch,
                                              uint64_t first_accelerator, uint64_t count);
// The same into `plan`, reusing its lists' memory: a dlrm epoch is millions of entries, and a
// fresh buffer each epoch cost page faults, zeroing and unmapping.
void PlanEpochInto(std::span<const uint32_t> samples_per_file, const SamplerOptions& options,
                   uint64_t epoch, uint64_t first_accelerator, uint64_t count,
                   std::vector<std::vector<SampleRef>>& plan);

// Whether every epoch's plan made with `options` is the same: no shuffle, or shuffles seeded
// without the epoch (seed_change_epoch false). A run then plans once, not every epoch.
bool SamePlanEveryEpoch(const SamplerOptions& options);

// Whether plans made with `options` hold consecutive samples wherever consecutive entries
// come from one file (no sample shuffle; file order does not matter): a read unit's run
// can then be measured at its ends (loader/sample_reads.h).
bool SequentialWithinFiles(const SamplerOptions& options);

}  // namespace trainbench::loader
