// Finds the labelled JPEG samples of a training set: an ImageNet-style folder of class
// folders, a tar of them (also ImageNet's tar of per-class tars), a folder of per-class tars,
// or a flat folder such as trainbench's own jpeg datasets (<data_folder>/train/*.jpg).
// Labels follow torchvision's ImageFolder: class names sorted, label = index. The class of a
// file is its first folder below the root; of a tar member, its folder in the tar, else the
// stem of the tar holding it (unless that is the tar the user named). Unlabelled files get
// label 0. Thread-safe: IndexImages is a pure function; SampleReader only reads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

// `location` is a folder (path or file:// URI) or a .tar file. A folder holding `train/`
// is indexed from there (ImageNet's and trainbench's layouts). Throws UsageError naming
// the location when it holds no JPEG, RuntimeError for a corrupt tar.
ImageIndex IndexImages(const std::string& location);

// Storage and object prefix a location resolves to (exposed for the reader).
struct ImageLocation {
  std::string storage_uri;
  std::string prefix;  // folder inside the storage, or the tar object
  bool is_tar = false;
};
ImageLocation ResolveImageLocation(const std::string& location);

// "/data/x.tar:n01440764/n01440764_10026.JPEG" or the file's path, for messages.
std::string DescribeSample(const ImageIndex& index, const ImageSample& sample);

// Reads samples' bytes. Thread-safe: each Read opens its object (file or tar) for itself.
// With an op-log, each read is a GET line in it (storage::OpLogStorage).
class SampleReader {
 public:
  explicit SampleReader(const ImageIndex& index, std::shared_ptr<metrics::OpLog> op_log = {});
  ~SampleReader();
  void Read(const ImageSample& sample, std::vector<uint8_t>& bytes) const;

 private:
  std::unique_ptr<storage::Storage> base_;
  std::unique_ptr<storage::Storage> logged_;  // over base_, with an op-log
  storage::Storage* storage_;                 // what reads go through
};

// Is `name` a training image by extension (.jpg, .jpeg, .png, any case)? Content decides
// how it is decoded.
bool HasImageExtension(const std::string& name);

}  // namespace trainbench::image
