#include "train/image_loader.h"

#include <ATen/ATen.h>

#include <numeric>

#include "common/random.h"
#include "image/train_transform.h"

namespace trainbench::train {

class WorkerState {
 public:
  explicit WorkerState(const image::TransformOptions& options) : transform(options) {}
  image::TrainTransform transform;
  std::vector<uint8_t> bytes;
};

ImageLoader::ImageLoader(image::ImageIndex index, const ImageLoaderOptions& options)
    : index_(std::move(index)), options_(options), reader_(index_) {
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

void ImageLoader::Build(int64_t batch_number, WorkerState& state, Batch& batch) {
  const int64_t b = options_.batch_size, s = options_.image_size;
  const auto host = at::TensorOptions().pinned_memory(options_.pin_memory);
  batch.images = options_.channels_last ? at::empty({b, 3, s, s}, host.dtype(at::kFloat),
                                                    at::MemoryFormat::ChannelsLast)
                                        : at::empty({b, 3, s, s}, host.dtype(at::kFloat));
  batch.labels = at::empty({b}, host.dtype(at::kLong));
  float* images = batch.images.data_ptr<float>();
  int64_t* labels = batch.labels.data_ptr<int64_t>();
  const size_t per_image = static_cast<size_t>(3 * s * s);
  for (int64_t i = 0; i < b; ++i) {
    const uint64_t position = static_cast<uint64_t>(batch_number * b + i);
    const image::ImageSample& sample = index_.samples[SampleAt(position)];
    reader_.Read(sample, state.bytes);
    Random random(Mix(options_.seed ^ 0x5eed, position));
    state.transform.Apply(state.bytes.data(), state.bytes.size(),
                          image::DescribeSample(index_, sample), random,
                          images + static_cast<size_t>(i) * per_image);
    labels[i] = sample.label;
  }
}

void ImageLoader::Work(int /*worker*/) {
  WorkerState state({options_.image_size, true, options_.channels_last});
  while (true) {
    int64_t number;
    {
      std::unique_lock lock(mutex_);
      room_.wait(lock, [&] {
        return stop_ || next_to_build_ < next_to_return_ + options_.prefetch_batches;
      });
      if (stop_) return;
      number = next_to_build_++;
    }
    Batch batch;
    try {
      Build(number, state, batch);
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
  ready_.wait(lock, [&] { return failure_ || done_.count(next_to_return_) > 0; });
  if (failure_) std::rethrow_exception(failure_);
  auto node = done_.extract(next_to_return_++);
  lock.unlock();
  room_.notify_all();
  return std::move(node.mapped());
}

}  // namespace trainbench::train
