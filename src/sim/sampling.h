// The workload's sampling settings as the loader's sampler takes them, and what follows
// from them before a run starts: the steps of an epoch, and the bytes a batch asks for.
// Pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "config/workload.h"
#include "dataset/dataset_files.h"
#include "formats/format.h"
#include "loader/sampler.h"

namespace trainbench::sim {

// Training's sampler over `accelerators` in all; `random_seed` orders `shuffle: random`.
// A fresh seed for `shuffle: random` (a run records it, so it can be replayed).
uint64_t DrawRandomShuffleSeed();

loader::SamplerOptions TrainSampling(const config::WorkloadConfig& config, uint64_t accelerators,
                                     uint64_t random_seed);
// Evaluation's: batch_size_eval, files and samples in order, every sample.
loader::SamplerOptions EvalSampling(const loader::SamplerOptions& train,
                                    const config::WorkloadConfig& config);
// read_type memory's one pass before training: every sample once, in order.
loader::SamplerOptions PreloadSampling(const loader::SamplerOptions& train);

// Steps per epoch for `accelerators` in all; throws UsageError (naming the keys) when
// not even one step fits, so a run can refuse before it creates its results folder.
uint64_t TrainStepsPerEpoch(const config::WorkloadConfig& config,
                            const dataset::DatasetFiles& dataset, uint64_t accelerators);

// The bytes batch `step` of `plan` reads (loader/sample_reads.h; files indexed from
// `file_offset`).
uint64_t BatchBytes(const std::vector<loader::SampleRef>& plan, uint64_t step, uint64_t batch,
                    const dataset::FileTable& files, uint32_t file_offset, bool sequential = false);

}  // namespace trainbench::sim
