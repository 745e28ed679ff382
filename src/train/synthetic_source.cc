#include <ATen/ATen.h>

#include "train/batch_source.h"

namespace trainbench::train {

namespace {

class SyntheticSource : public BatchSource {
 public:
  SyntheticSource(const SyntheticOptions& options, const c10::Device& device) {
    at::manual_seed(options.seed);
    auto images = at::randn({options.batch_size, 3, options.image_size, options.image_size},
                            at::TensorOptions().device(device).dtype(at::kFloat));
    if (options.channels_last) images = images.contiguous(at::MemoryFormat::ChannelsLast);
    batch_.images = images;
    batch_.labels = at::randint(options.num_classes, {options.batch_size},
                                at::TensorOptions().device(device).dtype(at::kLong));
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
