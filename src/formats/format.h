// A dataset file format: how datagen writes a file, and how it is checked. Each format
// is one file (tfrecord.cc, npz.cc, ...) registered in registry.cc, in the manner of
// fio's ioengines: a name, capability flags, and its operations.
// Writers are stateless and thread-safe: datagen calls Write from many threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config/workload.h"
#include "storage/storage.h"

namespace trainbench::formats {

// What to write: one dataset file.
struct FileSpec {
  std::string path;                    // relative to the dataset root
  uint64_t seed = 0;                   // all bytes derive from it
  std::vector<uint64_t> sample_sizes;  // bytes of payload per sample
};

// Where one sample's bytes are in the file: what a framework reader reads for it.
struct SampleExtent {
  uint64_t offset = 0;
  uint64_t length = 0;
};

// What was written; recorded in the manifest so a run needs no rescan.
struct WrittenFile {
  std::string path;
  uint64_t size_bytes = 0;
  uint64_t num_samples = 0;
  std::vector<SampleExtent> samples;    // empty where samples have no fixed place (compressed)
  std::vector<std::string> companions;  // extra files (index files of indexed_binary)
};

class FileFormat {
 public:
  virtual ~FileFormat() = default;
  virtual config::Format format() const = 0;
  // Writes spec.path (and companions) through `storage`, each committed only when whole.
  virtual WrittenFile Write(const FileSpec& spec, storage::Storage& storage) const = 0;
  // Re-reads a file and checks its structure against what was written. Throws
  // RuntimeError naming the file and the first bad offset.
  virtual void Verify(const WrittenFile& expected, storage::Storage& storage) const = 0;
  // Finds the sample extents of an existing file (one written by DLIO has no
  // manifest): reads only what it must (TFRecord headers, zip directory, HDF5 metadata).
  virtual WrittenFile Scan(const std::string& path, storage::Storage& storage) const = 0;
};

struct FormatTraits {
  // Array formats (npz, npy, hdf5) and csv hold equal-sized samples in a file, so the plan
  // draws one size per file rather than one per sample (as DLIO does).
  bool uniform_sample_size = false;
  // Samples are side x side squares, side = floor(sqrt(record_length_bytes)), as DLIO
  // shapes its arrays and images (its "dimension"): 114660 bytes give 338 x 338.
  bool square_samples = false;
  // Image formats hold one image per file; DLIO counts num_samples_per_file samples in
  // each (decoding the image for every one), so every sample is the whole file.
  bool whole_file_samples = false;
};

FormatTraits TraitsOf(config::Format format);

// "<file>: bad <kind> at offset N: <what>": the one shape of a Verify or Scan failure
// (a RuntimeError, exit 1).
[[noreturn]] void ThrowBadFile(std::string_view kind, const std::string& file, uint64_t offset,
                               const std::string& what);
// Throws unless `size` is the size the manifest recorded for the file.
void CheckSize(std::string_view kind, const std::string& file, uint64_t size,
               const WrittenFile& expected);
std::unique_ptr<FileFormat> MakeFormat(const config::WorkloadConfig& config);

}  // namespace trainbench::formats
