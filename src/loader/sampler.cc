#include "loader/sampler.h"

#include <algorithm>
#include <numeric>

#include "common/random.h"

namespace trainbench::loader {
namespace {

uint64_t ShuffleSeed(const SamplerOptions& o, config::Shuffle mode, uint64_t epoch, uint64_t salt) {
  const uint64_t base = mode == config::Shuffle::kRandom ? o.random_seed : o.seed;
  const uint64_t e = (mode == config::Shuffle::kRandom || o.seed_change_epoch) ? epoch : 0;
  return Mix(Mix(base, e), salt);
}

void FisherYates(std::vector<uint32_t>& items, Random& random) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[random.Below(i)]);
}

// tf.data's shuffle(buffer_size): fill a buffer, emit a random element, refill its slot.
void BufferShuffle(std::vector<SampleRef>& items, uint64_t buffer_size, Random& random) {
  if (buffer_size <= 1 || items.size() <= 1) return;
  if (buffer_size >= items.size()) {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[random.Below(i)]);
    return;
  }
  std::vector<SampleRef> buffer(items.begin(), items.begin() + static_cast<long>(buffer_size));
  std::vector<SampleRef> out;
  out.reserve(items.size());
  size_t next = buffer.size();
  while (!buffer.empty()) {
    const size_t pick = random.Below(buffer.size());
    out.push_back(buffer[pick]);
    if (next < items.size()) {
      buffer[pick] = items[next++];
    } else {
      buffer[pick] = buffer.back();
      buffer.pop_back();
    }
  }
  items = std::move(out);
}

}  // namespace

uint64_t StepsPerEpoch(uint64_t total_samples, const SamplerOptions& o) {
  const uint64_t per_step =
      std::max<uint64_t>(1, o.batch_size) * std::max<uint64_t>(1, o.accelerators);
  uint64_t steps = total_samples / per_step;
  if (o.max_steps > 0) steps = std::min(steps, static_cast<uint64_t>(o.max_steps));
  return steps;
}

bool SamePlanEveryEpoch(const SamplerOptions& o) {
  // ShuffleSeed's use of the epoch, for each shuffle that is on.
  const auto fixed = [&](config::Shuffle mode) {
    return mode == config::Shuffle::kOff ||
           (mode != config::Shuffle::kRandom && !o.seed_change_epoch);
  };
  return fixed(o.file_shuffle) && fixed(o.sample_shuffle);
}

bool SequentialWithinFiles(const SamplerOptions& o) {
  return o.sample_shuffle == config::Shuffle::kOff;
}

std::vector<std::vector<SampleRef>> PlanEpoch(std::span<const uint32_t> samples_per_file,
                                              const SamplerOptions& o, uint64_t epoch,
                                              uint64_t first_accelerator, uint64_t count) {
  std::vector<std::vector<SampleRef>> plan;
  PlanEpochInto(samples_per_file, o, epoch, first_accelerator, count, plan);
  return plan;
}

namespace {

// Writes samples [first, end) of `file` at plan[filled...], up to `limit` entries in all. A
// counted loop into room already there (the compiler vectorizes it): a plan of millions of
// samples (dlrm's Parquet rows) is made every epoch, and a push_back per sample was a fifth of
// a run's CPU.
void AppendRun(std::vector<SampleRef>& plan, uint64_t& filled, uint32_t file, uint64_t first,
               uint64_t end, uint64_t limit) {
  if (first >= end || filled >= limit) return;
  const uint64_t take = std::min(end - first, limit - filled);
  SampleRef* out = plan.data() + filled;
  for (uint64_t i = 0; i < take; ++i) out[i] = {file, static_cast<uint32_t>(first + i)};
  filled += take;
}

}  // namespace

void PlanEpochInto(std::span<const uint32_t> samples_per_file, const SamplerOptions& o,
                   uint64_t epoch, uint64_t first_accelerator, uint64_t count,
                   std::vector<std::vector<SampleRef>>& plan) {
  const uint64_t total =
      std::accumulate(samples_per_file.begin(), samples_per_file.end(), uint64_t{0});
  const uint64_t per_accelerator = StepsPerEpoch(total, o) * o.batch_size;

  std::vector<uint32_t> files(samples_per_file.size());
  std::iota(files.begin(), files.end(), 0u);
  if (o.file_shuffle != config::Shuffle::kOff) {
    Random random(ShuffleSeed(o, o.file_shuffle, epoch, 0xF11E));
    FisherYates(files, random);
  }

  plan.resize(count);
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t a = first_accelerator + k;
    auto& mine = plan[k];
    // Sized once (an epoch's plan has the same size as the last one's), then filled in place
    // and cut to what was filled.
    mine.resize(per_accelerator);
    uint64_t filled = 0;
    if (o.file_access == config::FileAccess::kMulti) {
      // The a-th slice of the file-ordered sample sequence.
      uint64_t skip = a * per_accelerator;
      for (uint32_t f : files) {
        const uint64_t n = samples_per_file[f];
        if (skip >= n) {
          skip -= n;
          continue;
        }
        AppendRun(mine, filled, f, skip, n, per_accelerator);
        skip = 0;
        if (filled == per_accelerator) break;
      }
    } else {
      // The a-th slice of a sequence ordered by (range r, file, sample), where range r
      // of a file is its r-th of `accelerators` near-equal parts: slices stay exact in
      // size and disjoint, and slice a is (about) range a of every file.
      uint64_t skip = a * per_accelerator;
      for (uint64_t r = 0; r < o.accelerators && filled < per_accelerator; ++r) {
        for (uint32_t f : files) {
          const uint64_t n = samples_per_file[f];
          const uint64_t begin = n * r / o.accelerators, end = n * (r + 1) / o.accelerators;
          if (skip >= end - begin) {
            skip -= end - begin;
            continue;
          }
          AppendRun(mine, filled, f, begin + skip, end, per_accelerator);
          skip = 0;
          if (filled == per_accelerator) break;
        }
      }
    }
    mine.resize(filled);
    if (o.sample_shuffle != config::Shuffle::kOff) {
      Random random(ShuffleSeed(o, o.sample_shuffle, epoch, Mix(0x5A3B1E, a)));
      BufferShuffle(mine, o.shuffle_size, random);
    }
  }
}

}  // namespace trainbench::loader
