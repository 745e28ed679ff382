// Finds the labelled JPEG samples of a training set: an ImageNet-style folder of class
// folders, a tar of them (also ImageNet's tar of per-class tars), a folder of per-class tars,
// or a flat folder such as trainbench's own jpeg datasets (<data_folder>/train/*.jpg).
// Labels follow torchvision's ImageFolder: class names sorted, label = index. The class of a
// file is its first folder below the root; of a tar member, its folder in the tar, else the
// stem of the tar holding it (unless that is the tar the user named). Unlabelled files get
// label 0. The location is a local path, a file:// URI, an s3://bucket/prefix URI (a prefix
// or a .tar object), or an http(s):// URL of one .tar (a web server has no listing), read
// through storage::OpenStorage with DLIO's storage_options (S3: endpoint, keys, retries;
// s3_options.h). Thread-safe: IndexImages is a pure function; SampleReader only reads, and
// each thread reads through its own SampleReads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "metrics/live_io.h"
#include "metrics/op_log.h"
#include "storage/storage.h"

namespace trainbench::image {

struct ImageSample {
  std::string path;     // storage object: the JPEG itself, or the tar holding it
  std::string member;   // name inside the tar; empty for a plain file
  uint64_t offset = 0;  // where the JPEG's bytes start in `path`
  uint64_t size = 0;
  int32_t label = 0;
};

struct ImageIndex {
  std::vector<ImageSample> samples;  // by class, then name
  std::vector<std::string> classes;  // label -> class name ("" for unlabelled files)
  std::string root;                  // what was indexed, for messages
};

using StorageOptions = std::map<std::string, std::string>;

// `location` is a folder (path, file:// URI, s3://bucket/prefix) or a .tar file or object. A
// folder holding `train/` is indexed from there (ImageNet's and trainbench's layouts). Throws
// UsageError naming the location when it holds no JPEG, RuntimeError for a corrupt tar, IoError
// when the storage cannot be read (S3: naming the endpoint, the bucket and what to check).
ImageIndex IndexImages(const std::string& location, const StorageOptions& storage_options = {});

// Asks `location`'s storage for as little as tells that it can be read (S3: one listing page,
// or a tar object's HEAD), so that wrong keys, a missing bucket or nothing there are found
// before a training builds its model, not after. Throws what IndexImages would.
void ProbeImageLocation(const std::string& location, const StorageOptions& storage_options = {});

// Storage and object prefix a location resolves to (exposed for the reader).
struct ImageLocation {
  std::string storage_uri;  // a path, or s3://bucket[/folders] (a bucket is never a tar)
  std::string prefix;       // folder inside the storage, or the tar object
  bool is_tar = false;
};
ImageLocation ResolveImageLocation(const std::string& location);

// "/data/x.tar:n01440764/n01440764_10026.JPEG" or the file's path, for messages.
std::string DescribeSample(const ImageIndex& index, const ImageSample& sample);

// Reads in flight per thread on remote storage (S3, a web server: ranged GETs): a JPEG's GET
// waits tens of milliseconds for its first byte while decoding it takes 1 to 5 ms of a core,
// so about 16 in flight keep one decode worker busy. A file system reads one at a time
// (pread), as before.
inline constexpr unsigned kRemoteReadsInFlight = 16;

struct SampleReaderOptions {
  StorageOptions storage_options;          // for an s3:// location (endpoint, keys, ...)
  std::shared_ptr<metrics::OpLog> op_log;  // set: each read a GET line in it
  unsigned depth = 0;      // reads in flight per thread; 0: kRemoteReadsInFlight or 1 (above)
  unsigned max_depth = 0;  // no more than this in flight (a batch's images); 0: no bound
  metrics::LiveIo* io = nullptr;  // set: every read's bytes and latency counted there
};

// Reads samples' bytes through the storage's read engine (storage/read_queue.h: pread on a
// file system, the `s3` engine's ranged GETs on S3, pread's threads over ranged GETs on a web
// server), each read the sample's own byte range
// (a tar member's at its offset). Thread-safe; each thread reads through its own SampleReads.
class SampleReader {
 public:
  explicit SampleReader(const ImageIndex& index, const SampleReaderOptions& options = {});
  ~SampleReader();
  // Reads in flight per SampleReads.
  unsigned depth() const { return depth_; }
  // What reads the samples, for messages ("s3 (libcurl multi), 16 in flight per worker").
  std::string Describe() const;
  // Sample `sample` (an index into the index's samples) on a queue of its own.
  void Read(size_t sample, std::vector<uint8_t>& bytes) const;
  // What the storage counted so far (S3: requests, retries, ...; storage.h's Counters).
  std::map<std::string, double> StorageCounters() const { return base_->Counters(); }

 private:
  friend class SampleReads;
  const ImageIndex& index_;
  std::unique_ptr<storage::Storage> base_;
  std::unique_ptr<storage::Storage> logged_;  // over base_, with an op-log
  std::vector<uint32_t> object_;              // sample -> the engine's object (file or tar)
  std::unique_ptr<storage::ReadEngine> engine_;
  unsigned depth_ = 1;
  metrics::LiveIo* io_ = nullptr;
};

// One thread's reads: up to the reader's depth in flight on one queue, each into a buffer of
// its own. Not thread-safe: one per thread.
class SampleReads {
 public:
  explicit SampleReads(const SampleReader& reader);
  ~SampleReads();
  // Reads samples[i] for every i, keeping up to depth() reads in flight, and calls
  // done(i, bytes) on this thread as each arrives (in any order; `bytes` is reused after
  // done returns). Throws RuntimeError naming the sample for a failed or short read.
  void ReadEach(std::span<const size_t> samples,
                const std::function<void(size_t i, std::vector<uint8_t>& bytes)>& done);

 private:
  const SampleReader& reader_;
  metrics::LiveIo::Slot* io_ = nullptr;        // this thread's, when the reader counts reads
  std::vector<std::vector<uint8_t>> buffers_;  // by slot (the read's tag)
  // After the buffers: destroyed first, so no read left in flight by a throw lands in them.
  std::unique_ptr<storage::ReadQueue> queue_;
};

// Is `name` a training image by extension (.jpg, .jpeg, .png, any case)? Content decides
// how it is decoded.
bool HasImageExtension(const std::string& name);

}  // namespace trainbench::image
