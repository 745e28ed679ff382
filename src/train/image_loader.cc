#include "train/image_loader.h"

#include <ATen/ATen.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "common/random.h"
#include "image/train_transform.h"

namespace trainbench::train {

class WorkerState {
 public:
  WorkerState(const image::TransformOptions& options, const image::SampleReader& reader)
      : transform(options), reads(reader) {}
  image::TrainTransform transform;
  image::SampleReads reads;
};

namespace {

image::SampleReaderOptions ReaderOptions(const ImageLoaderOptions& o) {
  image::SampleReaderOptions r;
  r.storage_options = o.storage_options;
  r.op_log = o.op_log;
  r.io = o.io;
  r.depth = static_cast<unsigned>(std::max(0, o.io_depth));
  // No more in flight than a batch has images.
  r.max_depth = static_cast<unsigned>(std::clamp<int64_t>(o.batch_size, 1, 1 << 16));
  return r;
}

}  // namespace

ImageLoader::ImageLoader(image::ImageIndex index, const ImageLoaderOptions& options)
    : index_(std::move(index)), options_(options), reader_(index_, ReaderOptions(options)) {
  if (options_.prefetch_batches <= 0) options_.prefetch_batches = 2 * options_.workers;
  for (int w = 0; w < options_.workers; ++w) workers_.emplace_back([this, w] { Work(w); });
}

ImageLoader::~ImageLoader() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  room_.notify_all();
  for (auto& t : workers_) t.join();
}

size_t ImageLoader::SampleAt(uint64_t position) {
  const uint64_t n = index_.samples.size();
  const uint64_t epoch = position / n;
  std::lock_guard lock(mutex_);
  auto it = orders_.find(epoch);
  if (it == orders_.end()) {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    Random random(Mix(options_.seed, epoch));
    for (uint64_t i = n - 1; i > 0; --i) std::swap(order[i], order[random.Below(i + 1)]);
    it = orders_.emplace(epoch, std::move(order)).first;
    // Keep a few epochs' orders for workers that lag (with small datasets they can be
    // epochs apart). Never drop the one just made: a lagging worker may have inserted an
    // epoch older than all the others, and an order dropped too early is only recomputed.
    while (orders_.size() > 4) {
      auto victim = orders_.begin();
      if (victim == it) ++victim;
      orders_.erase(victim);
    }
  }
  return it->second[position % n];
}

void ImageLoader::MarkBad(size_t sample, const std::string& why) {
  constexpr size_t kWarnings = 20;
  std::lock_guard lock(mutex_);
  if (!bad_.insert(sample).second) return;
  if (bad_.size() <= kWarnings)
    std::fprintf(stderr, "trainbench: warning: skipping %s (--on-bad-image fail stops instead)\n",
                 why.c_str());
  if (bad_.size() == kWarnings)
    std::fprintf(stderr, "trainbench: warning: further bad images are counted, not named\n");
}

bool ImageLoader::IsBad(size_t sample) {
  std::lock_guard lock(mutex_);
  return bad_.count(sample) > 0;
}

int64_t ImageLoader::bad_images() const {
  std::lock_guard lock(mutex_);
  return static_cast<int64_t>(bad_.size());
}

size_t ImageLoader::GoodFrom(size_t k) {
  const size_t n = index_.samples.size();
  for (size_t tries = 0; IsBad(k); ++tries, k = (k + 1) % n)
    if (tries == n)
      throw RuntimeError(fmt::format("--data {}: none of its {} images decodes", index_.root, n));
  return k;
}

void ImageLoader::Build(int64_t batch_number, WorkerState& state, Batch& batch) {
  const int64_t b = options_.batch_size, s = options_.image_size;
  const auto host = at::TensorOptions().pinned_memory(options_.pin_memory);
  batch.images = at::empty({b, s, s, 3}, host.dtype(at::kByte));
  batch.labels = at::empty({b}, host.dtype(at::kLong));
  uint8_t* images = batch.images.data_ptr<uint8_t>();
  int64_t* labels = batch.labels.data_ptr<int64_t>();
  const size_t per_image = static_cast<size_t>(3 * s * s);
  const size_t n = index_.samples.size();
  // Global batch k is positions [k * b * world, (k + 1) * b * world); this rank's slice.
  std::vector<uint64_t> positions(static_cast<size_t>(b));
  std::vector<size_t> chosen(static_cast<size_t>(b));
  for (size_t i = 0; i < positions.size(); ++i) {
    positions[i] =
        static_cast<uint64_t>((batch_number * options_.world_size + options_.rank) * b) + i;
    chosen[i] = GoodFrom(SampleAt(positions[i]));
  }
  // Decodes image i of the batch; false when it does not decode and is skipped.
  auto decode = [&](size_t i, const std::vector<uint8_t>& bytes) {
    const image::ImageSample& sample = index_.samples[chosen[i]];
    Random random(Mix(options_.seed ^ 0x5eed, positions[i]));
    try {
      state.transform.ApplyToBytes(bytes.data(), bytes.size(),
                                   image::DescribeSample(index_, sample), random,
                                   images + i * per_image);
    } catch (const RuntimeError& e) {
      if (!options_.skip_bad_images) throw;
      MarkBad(chosen[i], e.what());
      return false;
    }
    labels[i] = sample.label;
    return true;
  };
  std::vector<size_t> redo;
  state.reads.ReadEach(chosen, [&](size_t i, std::vector<uint8_t>& bytes) {
    if (!decode(i, bytes)) redo.push_back(i);
  });
  // A bad image's place goes to the next sample of the index, so a batch stays full.
  for (const size_t i : redo) {
    for (bool done = false; !done;) {
      chosen[i] = GoodFrom((chosen[i] + 1) % n);
      state.reads.ReadEach(std::span<const size_t>(&chosen[i], 1),
                           [&](size_t, std::vector<uint8_t>& bytes) { done = decode(i, bytes); });
    }
  }
}

void ImageLoader::Work(int /*worker*/) {
  std::optional<WorkerState> state;
  while (true) {
    int64_t number;
    {
      std::unique_lock lock(mutex_);
      auto all_built = [&] { return options_.batches > 0 && next_to_build_ >= options_.batches; };
      room_.wait(lock, [&] {
        return stop_ || all_built() || next_to_build_ < next_to_return_ + options_.prefetch_batches;
      });
      if (stop_ || all_built()) return;
      number = next_to_build_++;
    }
    Batch batch;
    try {
      // On the worker's thread: its read queue is its own.
      if (!state) state.emplace(image::TransformOptions{options_.image_size, true, false}, reader_);
      Build(number, *state, batch);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      stop_ = true;
      ready_.notify_all();
      room_.notify_all();
      return;
    }
    {
      std::lock_guard lock(mutex_);
      done_.emplace(number, std::move(batch));
    }
    ready_.notify_all();
  }
}

Batch ImageLoader::Next() {
  std::unique_lock lock(mutex_);
  if (options_.batches > 0 && next_to_return_ >= options_.batches)
    throw RuntimeError(fmt::format("the image loader was asked for batch {} of {}",
                                   next_to_return_ + 1, options_.batches));
  ready_.wait(lock, [&] { return failure_ || done_.count(next_to_return_) > 0; });
  if (failure_) std::rethrow_exception(failure_);
  auto node = done_.extract(next_to_return_++);
  lock.unlock();
  room_.notify_all();
  return std::move(node.mapped());
}

}  // namespace trainbench::train
