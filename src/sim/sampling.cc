#include "sim/sampling.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "common/error.h"
#include "loader/sample_reads.h"

namespace trainbench::sim {

uint64_t DrawRandomShuffleSeed() {
  return std::random_device{}() ^
         static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
}

loader::SamplerOptions TrainSampling(const config::WorkloadConfig& config, uint64_t accelerators,
                                     uint64_t random_seed) {
  loader::SamplerOptions o;
  o.accelerators = accelerators;
  o.batch_size = config.reader.batch_size;
  o.max_steps = config.train.total_training_steps;
  o.file_shuffle = config.reader.file_shuffle;
  o.sample_shuffle = config.reader.sample_shuffle;
  o.shuffle_size = config.reader.shuffle_size;
  o.file_access = config.reader.file_access;
  o.seed = config.train.seed;
  o.seed_change_epoch = config.train.seed_change_epoch;
  o.random_seed = random_seed;
  return o;
}

loader::SamplerOptions EvalSampling(const loader::SamplerOptions& train,
                                    const config::WorkloadConfig& config) {
  loader::SamplerOptions o = train;
  o.batch_size = std::max<uint64_t>(1, config.reader.batch_size_eval);
  o.max_steps = -1;
  o.file_shuffle = o.sample_shuffle = config::Shuffle::kOff;
  return o;
}

loader::SamplerOptions PreloadSampling(const loader::SamplerOptions& train) {
  loader::SamplerOptions o = train;
  o.file_shuffle = o.sample_shuffle = config::Shuffle::kOff;
  return o;
}

uint64_t TrainStepsPerEpoch(const config::WorkloadConfig& config,
                            const dataset::DatasetFiles& dataset, uint64_t accelerators) {
  uint64_t samples = 0;
  for (size_t i = 0; i < dataset.num_train; ++i) samples += dataset.files.NumSamples(i);
  const uint64_t steps = loader::StepsPerEpoch(samples, TrainSampling(config, accelerators, 0));
  if (steps == 0)
    throw UsageError(fmt::format(
        "the dataset has {} train samples, fewer than reader.batch_size ({}) x accelerators "
        "({}): no step can run; lower the batch size or accelerators, or add files",
        samples, config.reader.batch_size, accelerators));
  return steps;
}

uint64_t BatchBytes(const std::vector<loader::SampleRef>& plan, uint64_t step, uint64_t batch,
                    const dataset::FileTable& files, uint32_t file_offset, bool sequential) {
  uint64_t bytes = 0;
  const size_t end = std::min<size_t>(plan.size(), (step + 1) * batch);
  // A run of samples that one read serves (a Parquet row group's rows) at a time.
  for (size_t i = step * batch; i < end;
       i += loader::SameUnitRun(files, plan, i, end, file_offset, sequential))
    bytes += loader::ReadOf(files, plan, i, file_offset).Bytes();
  return bytes;
}

}  // namespace trainbench::sim
