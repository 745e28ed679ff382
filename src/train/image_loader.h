// Batches of real images for training: `workers` threads each build whole batches (read the
// batch's JPEGs or PNGs from their files or tars, local or on S3, up to `io_depth` reads in
// flight per worker (image::SampleReads), decoding each as it arrives: the crop's region,
// RandomResizedCrop, flip) as uint8 RGB (ModelInput normalises them on the device) straight into a
// pinned host tensor when training on CUDA, a few batches ahead of the training loop, so decoding
// overlaps the device's compute and the copy to the device can be asynchronous. Sample order is a
// seeded shuffle per epoch; each sample's augmentation is drawn from (seed, position), so a seed
// gives the same batches whatever the worker count. An image that does not decode is skipped (the
// next sample of the index takes its place, with a warning naming it once) unless skip_bad_images
// is off; I/O errors always stop. Thread-safe in the sense BatchSource needs: Next() from one
// thread; workers are internal.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "image/image_folder.h"
#include "metrics/op_log.h"
#include "train/batch_source.h"

namespace trainbench::train {

struct ImageLoaderOptions {
  int64_t batch_size = 128;
  int image_size = 224;
  bool pin_memory = false;  // true when the batches go to a CUDA device
  int workers = 4;
  int prefetch_batches = 0;  // 0: two per worker
  uint64_t seed = 123;
  bool skip_bad_images = true;  // --on-bad-image skip; false: fail
  int rank = 0;                 // this process's share of each global batch
  int world_size = 1;
  std::shared_ptr<metrics::OpLog> op_log;  // every image read recorded there; may be null
  image::StorageOptions storage_options;   // an s3:// index's endpoint, keys, ...
  int io_depth = 0;                        // reads in flight per worker; 0: the reader's default
  metrics::LiveIo* io = nullptr;           // set: every read's bytes and latency counted there
  // The batches the training takes in all (0: no end): none is read past the last, so an
  // op-log holds each image once an epoch and no GET goes unused.
  int64_t batches = 0;
};

class ImageLoader : public BatchSource {
 public:
  ImageLoader(image::ImageIndex index, const ImageLoaderOptions& options);
  ~ImageLoader() override;

  Batch Next() override;
  const image::ImageIndex& index() const { return index_; }
  const image::SampleReader& reader() const { return reader_; }
  int64_t bad_images() const;  // distinct images skipped so far

 private:
  void Work(int worker);
  void Build(int64_t batch_number, class WorkerState& state, Batch& batch);
  // The sample at `position` of the endless shuffled sequence (epoch = position / size).
  size_t SampleAt(uint64_t position);
  // `k`, or the next sample of the index after it that is not known to be bad.
  size_t GoodFrom(size_t k);
  // Remembers a sample that did not decode, warning once; false if it was known already.
  void MarkBad(size_t sample, const std::string& why);
  bool IsBad(size_t sample);

  image::ImageIndex index_;
  ImageLoaderOptions options_;
  image::SampleReader reader_;

  mutable std::mutex mutex_;
  std::condition_variable ready_;                     // a batch was finished (or a worker failed)
  std::condition_variable room_;                      // the consumer took a batch
  int64_t next_to_build_ = 0;                         // guarded by mutex_
  int64_t next_to_return_ = 0;                        // guarded by mutex_
  std::map<int64_t, Batch> done_;                     // guarded by mutex_
  std::exception_ptr failure_;                        // guarded by mutex_
  bool stop_ = false;                                 // guarded by mutex_
  std::map<uint64_t, std::vector<uint32_t>> orders_;  // epoch -> shuffled order; mutex_
  std::set<size_t> bad_;                              // undecodable samples; mutex_
  std::vector<std::thread> workers_;
};

}  // namespace trainbench::train
