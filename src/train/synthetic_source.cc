#include <ATen/ATen.h>

#include "train/batch_source.h"

namespace trainbench::train {

namespace {

class SyntheticSource : public BatchSource {
 public:
  SyntheticSource(const SyntheticOptions& options, const c10::Device& device) {
    at::manual_seed(options.seed);
    const int64_t global = options.batch_size * options.world_size;
    const int64_t first = options.batch_size * options.rank;
    auto images = at::randn({global, 3, options.image_size, options.image_size},
                            at::TensorOptions().device(device).dtype(at::kFloat))
                      .narrow(0, first, options.batch_size);
    images = options.channels_last ? images.contiguous(at::MemoryFormat::ChannelsLast)
                                   : images.contiguous();
    batch_.images = images;
    batch_.labels = at::randint(options.num_classes, {global},
                                at::TensorOptions().device(device).dtype(at::kLong))
                        .narrow(0, first, options.batch_size)
                        .contiguous();
  }
  Batch Next() override { return batch_; }

 private:
  Batch batch_;
};

}  // namespace

std::unique_ptr<BatchSource> MakeSyntheticSource(const SyntheticOptions& options,
                                                 const c10::Device& device) {
  return std::make_unique<SyntheticSource>(options, device);
}

}  // namespace trainbench::train
